package mathml

// The commands that stand for one character: identifiers (letters and constants, <mi>) and
// operators, relations and delimiters (<mo>).
var (
	identifiers = map[string]string{
		"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ",
		"eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
		"xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς",
		"tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
		"infty": "∞", "partial": "∂", "nabla": "∇", "hbar": "ℏ", "ell": "ℓ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ",
		"emptyset": "∅", "varnothing": "∅", "imath": "ı", "jmath": "ȷ", "wp": "℘",
	}
	// uprightIdentifiers are capital Greek letters, upright in TeX.
	uprightIdentifiers = map[string]string{
		"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
		"Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
	}
	operators = map[string]string{
		"times": "×", "cdot": "⋅", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "star": "⋆", "circ": "∘",
		"bullet": "∙", "oplus": "⊕", "ominus": "⊖", "otimes": "⊗", "odot": "⊙", "setminus": "∖",
		"cup": "∪", "cap": "∩", "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬",
		"leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "equiv": "≡",
		"sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝", "ll": "≪", "gg": "≫", "prec": "≺", "succ": "≻",
		"in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇",
		"to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔", "Rightarrow": "⇒",
		"Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹", "iff": "⟺", "mapsto": "↦", "uparrow": "↑",
		"downarrow": "↓", "longrightarrow": "⟶", "longleftarrow": "⟵",
		"forall": "∀", "exists": "∃", "nexists": "∄", "perp": "⊥", "parallel": "∥", "mid": "∣", "angle": "∠",
		"triangle": "△", "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "prime": "′",
		"colon": ":", "vert": "|", "Vert": "‖", "|": "‖", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊",
		"rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "{": "{", "}": "}", "lbrace": "{", "rbrace": "}",
		"backslash": `\`, "#": "#", "$": "$", "%": "%", "&": "&", "_": "_", "mod": "mod", "bmod": "mod",
	}
	// largeOperators take their limits under and over them in a display formula (\sum), or as
	// scripts (\int) unless \limits says otherwise.
	largeOperators = map[string]struct {
		char   string
		limits bool
	}{
		"sum": {"∑", true}, "prod": {"∏", true}, "coprod": {"∐", true}, "bigcup": {"⋃", true},
		"bigcap": {"⋂", true}, "bigoplus": {"⨁", true}, "bigotimes": {"⨂", true}, "bigvee": {"⋁", true},
		"bigwedge": {"⋀", true}, "int": {"∫", false}, "iint": {"∬", false}, "iiint": {"∭", false},
		"oint": {"∮", false},
	}
	// functions are written upright; the limit-like ones take limits as \sum does.
	functions = map[string]bool{
		"sin": false, "cos": false, "tan": false, "cot": false, "sec": false, "csc": false, "arcsin": false,
		"arccos": false, "arctan": false, "sinh": false, "cosh": false, "tanh": false, "coth": false,
		"log": false, "ln": false, "lg": false, "exp": false, "deg": false, "dim": false, "ker": false,
		"arg": false, "hom": false,
		"lim": true, "limsup": true, "liminf": true, "max": true, "min": true, "sup": true, "inf": true,
		"det": true, "gcd": true, "Pr": true,
	}
	// spaces are the widths of TeX's spacing commands.
	spaces = map[string]string{
		",": "0.1667em", ":": "0.2222em", ">": "0.2222em", ";": "0.2778em", " ": "0.25em", "quad": "1em",
		"qquad": "2em", "thinspace": "0.1667em", "enspace": "0.5em", "!": "0em",
	}
	// accents are put over (or, for under…, under) their argument.
	accents = map[string]struct {
		char  string
		under bool
	}{
		"hat": {"^", false}, "widehat": {"^", false}, "bar": {"¯", false}, "overline": {"‾", false},
		"vec": {"→", false}, "overrightarrow": {"→", false}, "dot": {"˙", false}, "ddot": {"¨", false},
		"tilde": {"~", false}, "widetilde": {"~", false}, "check": {"ˇ", false}, "breve": {"˘", false},
		"acute": {"´", false}, "grave": {"`", false}, "overbrace": {"⏞", false},
		"underline": {"_", true}, "underbrace": {"⏟", true},
	}
	// delimiters are what may follow \left, \right and \middle ("." for none).
	delimiters = map[string]string{
		"(": "(", ")": ")", "[": "[", "]": "]", "|": "|", "/": "/", ".": "", "<": "⟨", ">": "⟩",
		`\{`: "{", `\}`: "}", `\|`: "‖", `\langle`: "⟨", `\rangle`: "⟩", `\lfloor`: "⌊", `\rfloor`: "⌋",
		`\lceil`: "⌈", `\rceil`: "⌉", `\vert`: "|", `\Vert`: "‖", `\lbrace`: "{", `\rbrace`: "}",
		`\uparrow`: "↑", `\downarrow`: "↓", `\backslash`: `\`,
	}
	// matrices are the environments of rows and columns: the fences around them and how their
	// columns align.
	matrices = map[string]struct{ open, close, align string }{
		"matrix": {"", "", ""}, "smallmatrix": {"", "", ""}, "pmatrix": {"(", ")", ""}, "bmatrix": {"[", "]", ""},
		"Bmatrix": {"{", "}", ""}, "vmatrix": {"|", "|", ""}, "Vmatrix": {"‖", "‖", ""},
		"cases": {"{", "", "left"}, "aligned": {"", "", "right left"}, "align": {"", "", "right left"},
		"align*": {"", "", "right left"}, "gathered": {"", "", ""}, "split": {"", "", "right left"},
		"array": {"", "", ""},
	}
)

// Mathematical alphanumeric letters: where each style's A, a and 0 start, and the letters that
// have a code point of their own outside the block.
var styles = map[string]struct {
	upper, lower, digit rune
	holes               map[rune]rune
}{
	"mathbf":       {0x1D400, 0x1D41A, 0x1D7CE, nil},
	"boldsymbol":   {0x1D400, 0x1D41A, 0x1D7CE, nil},
	"mathit":       {0x1D434, 0x1D44E, 0, map[rune]rune{'h': 'ℎ'}},
	"mathsf":       {0x1D5A0, 0x1D5BA, 0x1D7E2, nil},
	"mathtt":       {0x1D670, 0x1D68A, 0x1D7F6, nil},
	"mathbb":       {0x1D538, 0, 0x1D7D8, map[rune]rune{'C': 'ℂ', 'H': 'ℍ', 'N': 'ℕ', 'P': 'ℙ', 'Q': 'ℚ', 'R': 'ℝ', 'Z': 'ℤ'}},
	"mathcal":      {0x1D49C, 0, 0, map[rune]rune{'B': 'ℬ', 'E': 'ℰ', 'F': 'ℱ', 'H': 'ℋ', 'I': 'ℐ', 'L': 'ℒ', 'M': 'ℳ', 'R': 'ℛ'}},
	"mathscr":      {0x1D49C, 0, 0, map[rune]rune{'B': 'ℬ', 'E': 'ℰ', 'F': 'ℱ', 'H': 'ℋ', 'I': 'ℐ', 'L': 'ℒ', 'M': 'ℳ', 'R': 'ℛ'}},
	"mathfrak":     {0x1D504, 0x1D51E, 0, map[rune]rune{'C': 'ℭ', 'H': 'ℌ', 'I': 'ℑ', 'R': 'ℜ', 'Z': 'ℨ'}},
	"mathrm":       {0, 0, 0, nil},
	"operatorname": {0, 0, 0, nil},
}

// styled is r in the style, r itself when the style has no letter for it.
func styled(style string, r rune) rune {
	s := styles[style]
	if to, ok := s.holes[r]; ok {
		return to
	}
	switch {
	case r >= 'A' && r <= 'Z' && s.upper != 0:
		return s.upper + r - 'A'
	case r >= 'a' && r <= 'z' && s.lower != 0:
		return s.lower + r - 'a'
	case r >= '0' && r <= '9' && s.digit != 0:
		return s.digit + r - '0'
	}
	return r
}
