// JavaLayout writes a values directory the way LinGBM's dataset generator
// (tools/datasetgen, SQLFlatWriter.recordValues and recordStatistics) does,
// with the Java collections it uses, from a dump of gqlbench's values per
// university (store's TestValuesLayoutLinGBM -lingbm-dump). It makes the
// fixture values-sf2.sha256 that the test compares gen --values with:
//
//	go test ./store -run TestValuesLayoutLinGBM -lingbm-dump /tmp/dump.txt
//	java store/testdata/lingbm-values/JavaLayout.java /tmp/dump.txt /tmp/javavalues
//	(cd /tmp/javavalues && sha256sum *) > store/testdata/lingbm-values/values-sf2.sha256
//
// Dump lines: "pool ID..." (the university table), then per university
// "univ U", "unis N" (the universities its rows refer to, itself included),
// "ids ENTITY ID..." and "words ENTITY WORD..." (in the order first drawn).
import java.io.*;
import java.nio.file.*;
import java.util.*;

public class JavaLayout {
    static final String[] ENTITIES = {"universityID", "departmentID", "researchGroupID", "facultyID",
            "professorID", "lecturerID", "graduateStudentID", "undergraduateStudentID",
            "publicationID", "graduateCourseID", "undergraduateCourseID", "title", "abstract", "interest"};

    static File dir;
    static Map<String, List<Integer>> ids;
    static Map<String, Set<String>> words;
    static int unis;

    public static void main(String[] args) throws IOException {
        dir = new File(args[1]);
        dir.mkdirs();
        boolean open = false;
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "pool": {
                    List<Integer> all = new ArrayList<Integer>();
                    for (int i = 1; i < f.length; i++) all.add(Integer.parseInt(f[i]));
                    write("universityID", all.toString(), false);
                    break;
                }
                case "univ":
                    if (open) endUniversity();
                    open = true;
                    ids = new HashMap<>();
                    words = new HashMap<>();
                    break;
                case "unis":
                    unis = Integer.parseInt(f[1]);
                    break;
                case "ids": {
                    List<Integer> list = new ArrayList<Integer>();
                    for (int i = 2; i < f.length; i++) list.add(Integer.parseInt(f[i]));
                    ids.put(f[1], list);
                    break;
                }
                case "words": {
                    Set<String> set = new HashSet<String>();
                    for (int i = 2; i < f.length; i++) set.add(f[i]);
                    words.put(f[1], set);
                    break;
                }
            }
        }
        if (open) endUniversity();
    }

    static void endUniversity() throws IOException {
        for (String e : ENTITIES) {
            if (e.equals("universityID")) continue;
            Collection<?> c = ids.containsKey(e) ? ids.get(e) : words.get(e);
            write(e, c.toString(), true);
        }
        try (BufferedWriter out = new BufferedWriter(new FileWriter(new File(dir, "statistics.csv"), true))) {
            for (String e : ENTITIES) {
                int n = e.equals("universityID") ? unis : ids.containsKey(e) ? ids.get(e).size() : words.get(e).size();
                if (e.equals("universityID")) out.write("\nthe number of " + e + "," + n + "\n");
                else out.write("the number of " + e + "," + n + "\n");
            }
        }
    }

    static void write(String entity, String listString, boolean append) throws IOException {
        try (BufferedWriter out = new BufferedWriter(new FileWriter(new File(dir, entity + ".txt"), append))) {
            out.write(listString.replace("[", "").replace("]", "") + ", ");
        }
    }
}
