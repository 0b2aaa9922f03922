panic("boom")
// Error:
// Panic: boom
