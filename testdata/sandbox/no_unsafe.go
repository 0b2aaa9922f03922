import "unsafe"
// Error:
// import "unsafe" is not allowed
