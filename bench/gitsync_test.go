package bench

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/cputime"
	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// BenchmarkGitSync10k syncs a 10,000-page space linked to a local bare repository both ways:
// the export of a one-page change (a merge, then the sync job that commits and pushes it) and the
// import of a person's one-file commit (the import call, then the sync job that reads the head
// and writes the revision). It reports each one's time and processor time, and their ratios to
// the merge of the same change request measured in the same run.
func BenchmarkGitSync10k(b *testing.B) {
	e := testenv.New(b, testenv.WithoutReadCache, func(o *server.Options) { o.GitAllowLocal = true })
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	space, pages := bigSpace(b, e, admin, org, benchPages)
	url, _ := gitrepo.Bare(b)
	base := "/v1/spaces/" + space
	link := fmt.Sprintf(`{"url":%q,"ref":"refs/heads/main","commitMessage":"Link"}`, url)
	call(b, e, admin, "POST", base+"/git/export", link)
	e.RunDueJobs()
	importCall := fmt.Sprintf(`{"url":%q,"ref":"refs/heads/main"}`, url)
	call(b, e, admin, "POST", base+"/git/import", importCall)
	e.RunDueJobs()

	var merge, export, imp, exportCPU, importCPU time.Duration
	b.ResetTimer()
	for i := range b.N {
		number := fmt.Sprint(call(b, e, admin, "POST", base+"/change-requests", `{}`)["number"])
		change := fmt.Sprintf(`{"changes":[{"operation":"update_page","page":%q,"document":{"markdown":"Rewritten %d\n\nNew text.\n"}}]}`, pages[(i*7919)%len(pages)], i)
		call(b, e, admin, "POST", base+"/change-requests/"+number+"/content", change)
		merge += timed(func() { call(b, e, admin, "POST", base+"/change-requests/"+number+"/merge", "") })
		cpu := cputime.Process()
		export += timed(func() { e.RunDueJobs() })
		exportCPU += cputime.Process() - cpu

		b.StopTimer()
		p := fmt.Sprintf("page-%d.md", 1+(i*104729)%(benchPages-1))
		files := gitrepo.Files(b, url)
		if _, ok := files[p]; !ok {
			b.Fatalf("the export has no %s", p)
		}
		gitrepo.Push(b, url, map[string]string{p: strings.Replace(files[p], "long enough", "long enough, from git,", 1)}, "One file")
		b.StartTimer()
		cpu = cputime.Process()
		imp += timed(func() {
			call(b, e, admin, "POST", base+"/git/import", importCall)
			e.RunDueJobs()
		})
		importCPU += cputime.Process() - cpu
	}
	b.StopTimer()
	n := time.Duration(b.N)
	b.ReportMetric(float64(export/n)/1e6, "export-ms")
	b.ReportMetric(float64(exportCPU/n)/1e6, "export-cpu-ms")
	b.ReportMetric(float64(imp/n)/1e6, "import-ms")
	b.ReportMetric(float64(importCPU/n)/1e6, "import-cpu-ms")
	b.ReportMetric(float64(export)/float64(merge), "export-x-merge")
	b.ReportMetric(float64(imp)/float64(merge), "import-x-merge")
}
