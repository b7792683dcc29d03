package mathml

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// body is the formula's MathML without the <math> wrapper and the annotation.
func body(t *testing.T, tex string, display bool) string {
	t.Helper()
	ml, err := Render(tex, display)
	if err != nil {
		t.Fatalf("%q: %v", tex, err)
	}
	ml = strings.TrimPrefix(strings.TrimPrefix(ml, `<math display="block">`), "<math>")
	ml = strings.TrimPrefix(ml, "<semantics>")
	return ml[:strings.Index(ml, "<annotation")]
}

func TestRender(t *testing.T) {
	cases := []struct {
		tex, want string
		display   bool
	}{
		{tex: "x+1", want: "<mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow>"},
		{tex: "3.14 - a", want: "<mrow><mn>3.14</mn><mo>−</mo><mi>a</mi></mrow>"},
		{tex: "x^2", want: "<mrow><msup><mi>x</mi><mn>2</mn></msup></mrow>"},
		{tex: "x^10", want: "<mrow><msup><mi>x</mi><mn>1</mn></msup><mn>0</mn></mrow>"},
		{tex: "a_{ij}^{2}", want: "<mrow><msubsup><mi>a</mi><mrow><mi>i</mi><mi>j</mi></mrow><mrow><mn>2</mn></mrow></msubsup></mrow>"},
		{tex: "f'", want: "<mrow><msup><mi>f</mi><mrow><mo>′</mo></mrow></msup></mrow>"},
		{tex: `\frac{a}{b}`, want: "<mrow><mfrac><mrow><mi>a</mi></mrow><mrow><mi>b</mi></mrow></mfrac></mrow>"},
		{tex: `\frac12`, want: "<mrow><mfrac><mn>1</mn><mn>2</mn></mfrac></mrow>"},
		{tex: `\sqrt{x}`, want: "<mrow><msqrt><mrow><mi>x</mi></mrow></msqrt></mrow>"},
		{tex: `\sqrt[3]{x}`, want: "<mrow><mroot><mrow><mi>x</mi></mrow><mrow><mn>3</mn></mrow></mroot></mrow>"},
		{tex: `\alpha\Gamma`, want: `<mrow><mi>α</mi><mi mathvariant="normal">Γ</mi></mrow>`},
		{tex: `a \leq b`, want: "<mrow><mi>a</mi><mo>≤</mo><mi>b</mi></mrow>"},
		{tex: `\sum_{i=1}^n i`, display: true,
			want: "<mrow><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>i</mi></mrow>"},
		{tex: `\sum_{i=1}^n i`, want: "<mrow><msubsup><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></msubsup><mi>i</mi></mrow>"},
		{tex: `\int_0^1 x`, display: true, want: "<mrow><msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mi>x</mi></mrow>"},
		{tex: `\lim_{x\to0}`, display: true, want: "<mrow><munder><mi>lim</mi><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></munder></mrow>"},
		{tex: `\sin x`, want: `<mrow><mi>sin</mi><mspace width="0.1667em"></mspace><mi>x</mi></mrow>`},
		{tex: `\left(\frac{1}{2}\right)`,
			want: `<mrow><mrow><mo fence="true" stretchy="true">(</mo><mrow><mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac></mrow><mo fence="true" stretchy="true">)</mo></mrow></mrow>`},
		{tex: `\left\{ x \middle| x>0 \right.`,
			want: `<mrow><mrow><mo fence="true" stretchy="true">{</mo><mrow><mi>x</mi></mrow><mo fence="true" stretchy="true">|</mo><mrow><mi>x</mi><mo>&gt;</mo><mn>0</mn></mrow></mrow></mrow>`},
		{tex: `\text{if } x<0`, want: "<mrow><mtext>if\u00a0</mtext><mi>x</mi><mo>&lt;</mo><mn>0</mn></mrow>"},
		{tex: `\mathbb{R}^n`, want: "<mrow><msup><mi>ℝ</mi><mi>n</mi></msup></mrow>"},
		{tex: `\mathbf{v}`, want: "<mrow><mi>𝐯</mi></mrow>"},
		{tex: `\mathrm{d}x`, want: `<mrow><mi mathvariant="normal">d</mi><mi>x</mi></mrow>`},
		{tex: `\hat{x}`, want: `<mrow><mover accent="true"><mrow><mi>x</mi></mrow><mo stretchy="true">^</mo></mover></mrow>`},
		{tex: `a\,b`, want: `<mrow><mi>a</mi><mspace width="0.1667em"></mspace><mi>b</mi></mrow>`},
		{tex: `\begin{pmatrix}1&0\\0&1\end{pmatrix}`,
			want: `<mrow><mrow><mo fence="true" stretchy="true">(</mo><mtable><mtr><mtd><mrow><mn>1</mn></mrow></mtd><mtd><mrow><mn>0</mn></mrow></mtd></mtr><mtr><mtd><mrow><mn>0</mn></mrow></mtd><mtd><mrow><mn>1</mn></mrow></mtd></mtr></mtable><mo fence="true" stretchy="true">)</mo></mrow></mrow>`},
		{tex: `\binom{n}{k}`, want: `<mrow><mrow><mo>(</mo><mfrac linethickness="0"><mrow><mi>n</mi></mrow><mrow><mi>k</mi></mrow></mfrac><mo>)</mo></mrow></mrow>`},
		{tex: "a % a comment\n+b", want: "<mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow>"},
	}
	for _, c := range cases {
		if got := body(t, c.tex, c.display); got != c.want {
			t.Errorf("%q (display %t):\n got %s\nwant %s", c.tex, c.display, got, c.want)
		}
	}
}

// TestRenderCommonFormulas: formulas as documentation pages write them render.
func TestRenderCommonFormulas(t *testing.T) {
	for _, tex := range []string{
		`E = mc^2`,
		`x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}`,
		`\int_{-\infty}^{\infty} e^{-x^2}\,dx = \sqrt{\pi}`,
		`f(x) = \begin{cases} x^2 & \text{if } x \geq 0 \\ -x & \text{otherwise} \end{cases}`,
		`\begin{aligned} a &= b + c \\ &= d \end{aligned}`,
		`\nabla \cdot \vec{E} = \frac{\rho}{\varepsilon_0}`,
		`\lim_{n \to \infty} \left(1 + \frac{1}{n}\right)^n = e`,
		`\mathcal{O}(n \log n)`,
		`\forall \epsilon > 0, \exists \delta > 0`,
		`\overline{z} \cdot z = |z|^2`,
		`P(A \mid B) = \dfrac{P(B \mid A)\,P(A)}{P(B)}`,
		`\sum\limits_{k=0}^{n} \binom{n}{k} = 2^n`,
		`\left\lfloor \frac{n}{2} \right\rfloor`,
		`\operatorname{softmax}(z)_i = \frac{e^{z_i}}{\sum_j e^{z_j}}`,
		`a \\ b`,
	} {
		if _, err := Render(tex, true); err != nil {
			t.Errorf("%q: %v", tex, err)
		}
	}
}

func TestRenderRefuses(t *testing.T) {
	for _, tex := range []string{
		`\unknowncommand{x}`, `\frac{a}`, `{x`, `x}`, `\left( x`, `\begin{tabular}x\end{tabular}`,
		`\begin{matrix} x \end{pmatrix}`, `\sqrt[3`, `x^`, `#`, strings.Repeat("{", 100) + strings.Repeat("}", 100),
		strings.Repeat("x", maxLength+1), "\xff",
	} {
		if ml, err := Render(tex, false); err == nil {
			t.Errorf("%q rendered: %s", tex, ml)
		}
	}
}

func TestRenderEscapes(t *testing.T) {
	ml, err := Render(`\text{<script>alert(1)</script>} < & >`, false)
	if err != nil {
		t.Fatal(err)
	}
	if bad := unknownMarkup(ml); bad != "" || strings.Contains(ml, "<script") {
		t.Fatalf("%s: %s", bad, ml)
	}
}

// allowed are the elements and attributes this package writes.
var allowed = map[string][]string{
	"math": {"display"}, "semantics": nil, "annotation": {"encoding"}, "mrow": nil, "mi": {"mathvariant"},
	"mn": nil, "mo": {"stretchy", "fence"}, "mtext": nil, "mspace": {"width"}, "msub": nil, "msup": nil,
	"msubsup": nil, "munder": {"accentunder"}, "mover": {"accent"}, "munderover": nil, "mfrac": {"linethickness"},
	"msqrt": nil, "mroot": nil, "mstyle": {"displaystyle"}, "mtable": {"columnalign"}, "mtr": nil, "mtd": nil,
}

// unknownMarkup names the first element or attribute of ml this package does not write, or an
// element left open; "" when there is none.
func unknownMarkup(ml string) string {
	z := html.NewTokenizer(strings.NewReader(ml))
	var open []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			if len(open) > 0 {
				return "unclosed " + open[len(open)-1]
			}
			return ""
		case html.StartTagToken:
			tok := z.Token()
			attrs, ok := allowed[tok.Data]
			if !ok {
				return "element " + tok.Data
			}
			for _, a := range tok.Attr {
				if !slices.Contains(attrs, a.Key) {
					return "attribute " + a.Key
				}
			}
			open = append(open, tok.Data)
		case html.EndTagToken:
			tok := z.Token()
			if len(open) == 0 || open[len(open)-1] != tok.Data {
				return "misplaced </" + tok.Data + ">"
			}
			open = open[:len(open)-1]
		case html.SelfClosingTagToken:
			return "self-closing " + z.Token().Data
		}
	}
}

// FuzzRender: any formula renders as the elements and attributes above, balanced, or is refused;
// none panics.
func FuzzRender(f *testing.F) {
	for _, s := range []string{`x^2`, `\frac{a}{b}`, `\left( x \right)`, `\begin{cases}a&b\\c\end{cases}`, `\text{<b>}`,
		`\sqrt[n]{x}`, `\mathbb{R}`, `\sum_{i}^{n}`, `\hat{\vec{x}}`, `a'''_b`, `\lim\limits_{x}`, "%\n"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, tex string, display bool) {
		ml, err := Render(tex, display)
		if err != nil {
			return
		}
		if bad := unknownMarkup(ml); bad != "" {
			t.Fatalf("%q renders %s: %s", tex, bad, ml)
		}
	})
}
