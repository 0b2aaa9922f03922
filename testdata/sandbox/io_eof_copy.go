io.EOF = nil
// -- cell --
sc := bufio.NewScanner(strings.NewReader("a\nb\nc"))
n := 0
for sc.Scan() {
	n++
}
n
// Output:
// 3
