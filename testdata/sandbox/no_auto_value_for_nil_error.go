var err error
err
// Output:
