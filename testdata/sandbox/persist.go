x := 40
// -- cell --
type point struct{ X, Y int }
func (p point) Sum() int { return p.X + p.Y }
// -- cell --
p := point{x, 2}
p.Sum()
// Output:
// 42
