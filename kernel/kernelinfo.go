package kernel

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// kernelInfo builds the kernel_info_reply content from the config.
func (s *server) kernelInfo() kernelInfoContent {
	impl := s.cfg.ImplementationVersion
	if impl == "" {
		impl = "devel"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			impl = bi.Main.Version
		}
	}
	lang := s.cfg.LanguageVersion
	if lang == "" {
		lang = strings.TrimPrefix(runtime.Version(), "go")
	}
	links := s.cfg.HelpLinks
	if links == nil {
		links = []HelpLink{}
	}
	return kernelInfoContent{
		Status:                "ok",
		ProtocolVersion:       ProtocolVersion,
		Implementation:        Implementation,
		ImplementationVersion: impl,
		LanguageInfo: languageInfo{
			Name:              "go",
			Version:           lang,
			Mimetype:          "text/x-go",
			FileExtension:     ".go",
			PygmentsLexer:     "go",
			CodemirrorMode:    "go",
			NbconvertExporter: "script",
		},
		Banner:    s.cfg.Banner,
		HelpLinks: links,
	}
}
