package editor

import (
	"path"
	"strings"
)

// languageByExt maps a lowercase extension to a Monaco language id. Only ids
// Monaco ships are used; anything else is plaintext rather than a guess.
var languageByExt = map[string]string{
	".go": "go", ".mod": "plaintext", ".sum": "plaintext",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescript",
	".py": "python", ".pyi": "python", ".rb": "ruby", ".rs": "rust",
	".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".sc": "scala",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
	".cs": "csharp", ".fs": "fsharp", ".fsx": "fsharp", ".vb": "vb",
	".swift": "swift", ".m": "objective-c", ".mm": "objective-c",
	".php": "php", ".pl": "perl", ".pm": "perl", ".lua": "lua", ".r": "r",
	".dart": "dart", ".ex": "elixir", ".exs": "elixir", ".clj": "clojure", ".cljs": "clojure",
	".jl": "julia",
	".sh": "shell", ".bash": "shell", ".zsh": "shell", ".fish": "shell", ".ps1": "powershell", ".psm1": "powershell",
	".bat": "bat", ".cmd": "bat",
	".html": "html", ".htm": "html", ".xhtml": "html", ".vue": "html", ".svelte": "html",
	".css": "css", ".scss": "scss", ".sass": "scss", ".less": "less",
	".json": "json", ".jsonc": "json", ".json5": "json", ".jsonl": "json", ".webmanifest": "json",
	".xml": "xml", ".svg": "xml", ".xsd": "xml", ".xsl": "xml", ".plist": "xml", ".csproj": "xml",
	".yaml": "yaml", ".yml": "yaml", ".toml": "ini", ".ini": "ini", ".cfg": "ini", ".conf": "ini", ".properties": "ini",
	".md": "markdown", ".markdown": "markdown", ".mdx": "mdx", ".rst": "restructuredtext",
	".sql": "sql", ".graphql": "graphql", ".gql": "graphql", ".proto": "protobuf",
	".tf": "hcl", ".hcl": "hcl", ".dockerfile": "dockerfile",
	".txt": "plaintext", ".log": "plaintext", ".csv": "plaintext", ".tsv": "plaintext",
	".coffee": "coffee", ".pug": "pug", ".hbs": "handlebars",
	".twig": "twig", ".liquid": "liquid", ".sol": "solidity", ".tcl": "tcl", ".pas": "pascal", ".rkt": "scheme", ".scm": "scheme",
	".cshtml": "razor", ".bicep": "bicep", ".cypher": "cypher", ".redis": "redis", ".st": "st",
	".diff": "plaintext", ".patch": "plaintext",
}

// languageByName maps well-known file names that have no telling extension.
var languageByName = map[string]string{
	"dockerfile": "dockerfile", "containerfile": "dockerfile",
	"makefile": "plaintext", "gnumakefile": "plaintext",
	"go.mod": "plaintext", "go.work": "plaintext",
	"gemfile": "ruby", "rakefile": "ruby", "podfile": "ruby", "vagrantfile": "ruby",
	".bashrc": "shell", ".zshrc": "shell", ".profile": "shell", ".bash_profile": "shell",
	".gitignore": "plaintext", ".dockerignore": "plaintext",
	".editorconfig": "ini", ".env.example": "ini",
	"license": "plaintext", "readme": "markdown",
}

// Language guesses the Monaco language id of a file from its name.
func Language(p string) string {
	base := strings.ToLower(path.Base(p))
	if l, ok := languageByName[base]; ok {
		return l
	}
	if strings.HasPrefix(base, "dockerfile.") {
		return "dockerfile"
	}
	if l, ok := languageByExt[path.Ext(base)]; ok {
		return l
	}
	return "plaintext"
}
