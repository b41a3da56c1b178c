package interop

import (
	_ "embed"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gqlbench/gqlbench/verify"
)

//go:embed check.groovy
var checkGroovy string

// JMeter writes the workload as a JMeter 5 test plan named name and its
// instances: name with .csv in place of .jmx, beside it (tab-separated:
// the template's index, template, id, expected hash, unordered, request
// body). The plan's thread group reads one instance per iteration (shared
// by all threads, in file order, recycled) and a Switch Controller runs
// the HTTP sampler of its template, one per template, named after it; a
// JSR223 assertion in Groovy (check.groovy) checks every answer and
// fails the sample with the reason. The shape's values are properties that
// -J on JMeter's command line replaces: target, users, rampup, duration
// (seconds), think_ms, rate (requests/s, arrival-rate form) and loops
// (iterations per user; -1, the default, until the duration ends).
func JMeter(wl *Workload, name string) ([]File, error) {
	data := strings.TrimSuffix(name, filepath.Ext(name)) + ".csv"
	labels := Labels(wl.Items)
	index := map[string]int{}
	for i, l := range labels {
		index[l] = i
	}
	var csv strings.Builder
	for _, it := range wl.Items {
		for _, f := range []string{it.Label, it.ID} {
			if strings.ContainsAny(f, "\t\r\n") {
				return nil, fmt.Errorf("entry %q: a tab or line break in its id or label cannot go into JMeter's CSV data set", it.ID)
			}
		}
		fmt.Fprintf(&csv, "%d\t%s\t%s\t%s\t%t\t%s\n", index[it.Label], it.Label, it.ID, it.Expect, it.Unordered, it.Body)
	}
	var b strings.Builder
	x := func(s string) string {
		var e strings.Builder
		xml.EscapeText(&e, []byte(s))
		return e.String()
	}
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	s := wl.Shape
	rampUp := int(s.RampUp.Seconds())
	p(`<?xml version="1.0" encoding="UTF-8"?>
<!-- gqlbench export jmeter: %d requests of %d templates from %s.
  jmeter -n -t %s -l results.jtl -Jtarget=http://HOST:PORT/graphql
  gqlbench import jmeter results.jtl -o run.jsonl
Every answer is checked as gqlbench load checks it (HTTP 200, no GraphQL errors,
the SHA-256 of the canonical JSON of its data equal to the expected hash) by the
JSR223 assertion "gqlbench answer check"; its failure message starts with the kind
of failure (wrong answer, graphql_errors, http_status, bad_response, transport,
timeout). Properties (-Jname=value): target, users, rampup, duration (seconds at
full strength), think_ms, rate (requests/s, when the plan is of the arrival-rate form),
loops (iterations per user, -1: until the duration ends).
-->
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="gqlbench %s">
      <elementProp name="TestPlan.user_defined_variables" elementType="Arguments" guiclass="ArgumentsPanel" testclass="Arguments">
        <collectionProp name="Arguments.arguments"/>
      </elementProp>
      <boolProp name="TestPlan.functional_mode">false</boolProp>
      <boolProp name="TestPlan.serialize_threadgroups">false</boolProp>
    </TestPlan>
    <hashTree>
`, len(wl.Items), len(labels), x(wl.Source), x(name), x(wl.Source))
	p(`      <HeaderManager guiclass="HeaderPanel" testclass="HeaderManager" testname="headers">
        <collectionProp name="HeaderManager.headers">
`)
	header := func(n, v string) {
		p(`          <elementProp name="" elementType="Header">
            <stringProp name="Header.name">%s</stringProp>
            <stringProp name="Header.value">%s</stringProp>
          </elementProp>
`, x(n), x(v))
	}
	header("Content-Type", "application/json")
	for _, h := range wl.Headers {
		if h.Env != "" {
			// Read when the sample is made; a missing variable sends an
			// empty value, which the server refuses: the check fails.
			header(h.Name, fmt.Sprintf("${__groovy(System.getenv('%s') ?: '')}", h.Env))
		} else {
			header(h.Name, strings.ReplaceAll(h.Value, "$", "${__char(36)}"))
		}
	}
	p(`        </collectionProp>
      </HeaderManager>
      <hashTree/>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="users">
        <stringProp name="ThreadGroup.num_threads">${__P(users,%d)}</stringProp>
        <stringProp name="ThreadGroup.ramp_time">${__P(rampup,%d)}</stringProp>
        <stringProp name="ThreadGroup.duration">${__intSum(${__P(rampup,%d)},${__P(duration,%d)})}</stringProp>
        <stringProp name="ThreadGroup.delay">0</stringProp>
        <boolProp name="ThreadGroup.scheduler">true</boolProp>
        <boolProp name="ThreadGroup.same_user_on_next_iteration">true</boolProp>
        <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController">
          <stringProp name="LoopController.loops">${__P(loops,-1)}</stringProp>
          <boolProp name="LoopController.continue_forever">false</boolProp>
        </elementProp>
      </ThreadGroup>
      <hashTree>
        <CSVDataSet guiclass="TestBeanGUI" testclass="CSVDataSet" testname="instances">
          <stringProp name="filename">%s</stringProp>
          <stringProp name="fileEncoding">UTF-8</stringProp>
          <stringProp name="variableNames">gqlbench_switch,gqlbench_template,gqlbench_id,gqlbench_expect,gqlbench_unordered,gqlbench_body</stringProp>
          <boolProp name="ignoreFirstLine">false</boolProp>
          <stringProp name="delimiter">\t</stringProp>
          <boolProp name="quotedData">false</boolProp>
          <boolProp name="recycle">true</boolProp>
          <boolProp name="stopThread">false</boolProp>
          <stringProp name="shareMode">shareMode.all</stringProp>
        </CSVDataSet>
        <hashTree/>
`, s.Users, rampUp, rampUp, int(s.Duration.Seconds()), x(data))
	if s.Open() {
		p(`        <PreciseThroughputTimer guiclass="TestBeanGUI" testclass="PreciseThroughputTimer" testname="arrivals">
          <stringProp name="throughput">${__P(rate,%g)}</stringProp>
          <intProp name="throughputPeriod">1</intProp>
          <stringProp name="duration">${__intSum(${__P(rampup,%d)},${__P(duration,%d)})}</stringProp>
          <intProp name="batchSize">1</intProp>
          <intProp name="batchThreadDelay">0</intProp>
          <longProp name="randomSeed">0</longProp>
          <stringProp name="exactLimit">10000</stringProp>
          <stringProp name="allowedThroughputSurplus">1.0</stringProp>
        </PreciseThroughputTimer>
        <hashTree/>
`, s.Rate, rampUp, int(s.Duration.Seconds()))
	} else {
		p(`        <UniformRandomTimer guiclass="UniformRandomTimerGui" testclass="UniformRandomTimer" testname="think time">
          <stringProp name="ConstantTimer.delay">0</stringProp>
          <stringProp name="RandomTimer.range">${__P(think_ms,%d)}</stringProp>
        </UniformRandomTimer>
        <hashTree/>
`, s.Think.Milliseconds())
	}
	p(`        <SwitchController guiclass="SwitchControllerGui" testclass="SwitchController" testname="template">
          <stringProp name="SwitchController.value">${gqlbench_switch}</stringProp>
        </SwitchController>
        <hashTree>
`)
	for _, l := range labels {
		p(`          <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="%s">
            <boolProp name="HTTPSampler.postBodyRaw">true</boolProp>
            <elementProp name="HTTPsampler.Arguments" elementType="Arguments">
              <collectionProp name="Arguments.arguments">
                <elementProp name="" elementType="HTTPArgument">
                  <boolProp name="HTTPArgument.always_encode">false</boolProp>
                  <stringProp name="Argument.value">${gqlbench_body}</stringProp>
                  <stringProp name="Argument.metadata">=</stringProp>
                </elementProp>
              </collectionProp>
            </elementProp>
            <stringProp name="HTTPSampler.path">${__P(target,%s)}</stringProp>
            <stringProp name="HTTPSampler.method">POST</stringProp>
            <stringProp name="HTTPSampler.contentEncoding">UTF-8</stringProp>
            <boolProp name="HTTPSampler.follow_redirects">false</boolProp>
            <boolProp name="HTTPSampler.auto_redirects">false</boolProp>
            <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
            <stringProp name="HTTPSampler.connect_timeout">10000</stringProp>
            <stringProp name="HTTPSampler.response_timeout">60000</stringProp>
          </HTTPSamplerProxy>
          <hashTree/>
`, x(l), x(strings.ReplaceAll(wl.Target, ",", `\,`)))
	}
	p(`        </hashTree>
        <JSR223Assertion guiclass="TestBeanGUI" testclass="JSR223Assertion" testname="gqlbench answer check">
          <stringProp name="scriptLanguage">groovy</stringProp>
          <stringProp name="parameters"></stringProp>
          <stringProp name="filename"></stringProp>
          <stringProp name="cacheKey">true</stringProp>
          <stringProp name="script">%s</stringProp>
        </JSR223Assertion>
        <hashTree/>
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>
`, x(checkGroovy+strings.Replace(jmeterAssertion, "IGNORE", groovyPaths(wl.Ignore), 1)))
	return []File{{Data: []byte(b.String())}, {Name: data, Data: []byte(csv.String())}}, nil
}

// jmeterAssertion runs the check on the sample: a transport error or a
// timeout has a response code that is not a number.
const jmeterAssertion = `
String code = prev.getResponseCode()
String why
if (!(code ==~ /\d+/)) {
    String msg = code + ' ' + prev.getResponseMessage()
    why = (msg.contains('SocketTimeoutException') ? 'timeout: ' : 'transport: ') + msg.take(200)
} else {
    why = GqlbJson.check(code, prev.getResponseData(), vars.get('gqlbench_expect'), vars.get('gqlbench_unordered') == 'true', IGNORE)
}
if (why) {
    AssertionResult.setFailure(true)
    AssertionResult.setFailureMessage(why)
}
`

// groovyPaths writes the ignored paths as a Groovy list of lists of
// single-quoted strings.
func groovyPaths(paths []verify.Path) string {
	var b strings.Builder
	b.WriteString("[")
	for i, p := range paths {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[")
		for j, name := range p {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "$", `\$`).Replace(name) + "'")
		}
		b.WriteString("]")
	}
	b.WriteString("] as List<List<String>>")
	return b.String()
}
