package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/store"
)

// ExampleFill generates the sf=1 dataset into a SQLite file, as
// `gqlbench gen --sf 1 --db sqlite:lingbm.db` does, reads back the metadata
// stored beside the data, and fingerprints the tables: the rows and sums
// pinned for seed 0, sf=1 in dataset/testdata/fingerprint-v1.txt.
func ExampleFill() {
	dir, err := os.MkdirTemp("", "gqlbench-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "lingbm.db")

	ctx := context.Background()
	target := &store.SQLiteTarget{Path: path} // or store.PostgresTarget, store.NewFile
	meta, err := store.Fill(ctx, target, dataset.Config{Seed: 0, Scale: 1}, store.FillOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("loaded", meta.TotalRows(), "rows")

	stored, err := benchdb.ReadMeta(ctx, "sqlite:"+path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("stored metadata: sf", stored.Scale, "seed", stored.Seed, "version", stored.Version)

	db, err := benchdb.OpenSQLite(path)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	fp, err := store.FingerprintDB(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(fp.String())
	// Output:
	// loaded 55028 rows
	// stored metadata: sf 1 seed 0 version 1
	// university 1000 30ac0978a8594fca
	// department 19 5e32f430a0e21b9b
	// researchGroup 280 a4d60ffc49bf64e1
	// faculty 685 259af4ee321854f0
	// professor 568 45352637468c5ae8
	// lecturer 117 0ade02173dcca522
	// graduateStudent 2400 b071f1eae0176d78
	// undergraduateStudent 7343 3fe2bff3a1f5166a
	// undergraduateCourse 1026 6a99ebb59a45346c
	// graduateCourse 1036 88098a343b916e56
	// publication 7690 cc4100f3a5eba88a
	// coAuthorOfPublication 5985 c3b5955e938c3621
	// graduateStudentTakeCourse 4802 34748f11d64e5cc4
	// undergraduateStudentTakeCourse 22077 6ec44bcc52dcb058
}
