package kernelspec

import (
	"embed"
	"path"
)

// The logos are files, drawn once (a rising white bar chart and a gold coin
// on a Go-blue tile: award dollars, analysed in Go) and embedded, so that the
// binary needs no asset files at run time and no code draws them.
//
//go:embed logos/logo-32x32.png logos/logo-64x64.png logos/logo-svg.svg
var logos embed.FS

// logoFiles returns the three logos Jupyter looks for in a kernelspec
// directory, under the names it looks for.
func logoFiles() ([]file, error) {
	var files []file
	for _, name := range []string{logo32, logo64, logoSVG} {
		data, err := logos.ReadFile(path.Join("logos", name))
		if err != nil {
			return nil, err
		}
		files = append(files, file{name, data})
	}
	return files, nil
}
