time.AfterFunc(time.Second, func() {})
// Error:
// has no symbol AfterFunc
