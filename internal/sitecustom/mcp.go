package sitecustom

import "slices"

// MCPTools are the tools of a published site's MCP server, in the order it offers them.
var MCPTools = []string{"search", "get_page", "list_pages", "get_openapi_operation"}

// MCP says, from a site's effective settings (Effective), whether its MCP server is on and the
// tools it offers: on when the settings' mcp.enabled says so, else when anyone may read the site
// (openToAnyone: public and unlisted sites); the tools mcp.tools names, every one by default.
func MCP(settings map[string]any, openToAnyone bool) (on bool, tools []string) {
	m, _ := settings["mcp"].(map[string]any)
	on, set := m["enabled"].(bool)
	if !set {
		on = openToAnyone
	}
	named, _ := m["tools"].([]any)
	for _, t := range MCPTools {
		if slices.Contains(named, any(t)) {
			tools = append(tools, t)
		}
	}
	return on, tools
}

// toAny is a list of strings as JSON decodes it.
func toAny(items []string) []any {
	out := make([]any, len(items))
	for i, s := range items {
		out[i] = s
	}
	return out
}
