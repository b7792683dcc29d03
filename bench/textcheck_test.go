package bench

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/text"
)

// BenchmarkTextCheck measures text.CheckJSON, which every request body passes, against
// json.Valid over the same body (the least any JSON body costs to read) in the same rounds:
// a 30 MiB import upload that passes on the fast path, the same with a "\u0000" escape at its end
// (walked string by string and refused naming the field), and a 1 MiB body of 20,000 short
// fields refused at the last one.
func BenchmarkTextCheck(b *testing.B) {
	upload := `{"source":"markdown","zip":"` + base64.StdEncoding.EncodeToString(make([]byte, 22<<20)) + `"}`
	var fields strings.Builder
	fields.WriteString(`{"items":[`)
	for range 20000 {
		fields.WriteString(`{"title":"a page title","slug":"a-page"},`)
	}
	fields.WriteString(`{"title":"nul\u0000"}]}`)
	bodies := []struct {
		name    string
		body    string
		refused bool
	}{
		{"Upload30MiB", upload, false},
		{"Upload30MiBEscapedNUL", upload[:len(upload)-2] + `\u0000"}`, true},
		{"Fields1MiBEscapedNUL", fields.String(), true},
	}
	for _, c := range bodies {
		body := []byte(c.body)
		b.Run(c.name, func(b *testing.B) {
			check := func() {
				if err := text.CheckJSON(body); (err != nil) != c.refused {
					b.Fatalf("refused: %v", err)
				}
			}
			baseline := func() {
				if !json.Valid(body) {
					b.Fatal("not JSON")
				}
			}
			var meas, base time.Duration
			for done := 0; done < b.N; done++ {
				meas += perRequest(1, check)
				base += perRequest(1, baseline)
			}
			b.ReportMetric(float64(meas/time.Duration(b.N))/1e6, "ms/body")
			b.ReportMetric(float64(meas)/float64(base), "x-json.Valid")
		})
	}
}
