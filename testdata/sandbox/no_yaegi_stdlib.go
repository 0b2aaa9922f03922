import "github.com/traefik/yaegi/stdlib"
// Error:
// is not allowed: cells may import only
