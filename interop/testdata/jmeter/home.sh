#!/usr/bin/env bash
# Makes a JMeter 5.6.3 home (bin/ApacheJMeter.jar, bin/*.properties, lib/,
# lib/ext/) in DIR from Maven Central through Maven (pom.xml beside this
# script pins the version): the layout JMeter's launcher expects, which no
# single Maven artifact ships. Offline once made; rerunning it is a no-op.
#   bash interop/testdata/jmeter/home.sh DIR
set -euo pipefail
dir=${1:?usage: home.sh DIR}
[ -f "$dir/bin/ApacheJMeter.jar" ] && [ -f "$dir/bin/jmeter.properties" ] && exit 0
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$tmp/lib"
mkdir -p "$dir/bin" "$dir/lib/ext"
cp "$tmp"/lib/*.jar "$dir/lib/"
mv "$dir"/lib/ApacheJMeter_*.jar "$dir/lib/ext/"
mv "$dir/lib/ext/ApacheJMeter_config-5.6.3.jar" "$tmp/config.jar"
(cd "$dir" && unzip -q -o "$tmp/config.jar" 'bin/*')
mv "$dir/lib/ApacheJMeter-5.6.3.jar" "$dir/bin/ApacheJMeter.jar"
# The launcher adds lib/junit to its class path when it exists, and warns otherwise.
mkdir -p "$dir/lib/junit"
