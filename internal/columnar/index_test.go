package columnar

import "testing"

// TestScanKernels checks the bitmap scans (used for columns without an
// index) against a plain loop, for lengths around word and parallel-part
// boundaries.
func TestScanKernels(t *testing.T) {
	for _, n := range []int{0, 1, 7, 63, 64, 65, 130, 1000, MinParallelRows + 77, 3*MinParallelRows + 64} {
		codes := make([]int16, n)
		vals := make([]int64, n)
		for i := range codes {
			codes[i] = int16((i * 7919) % 5)
			vals[i] = int64((i*104729)%50) - 10
		}
		hit := []uint64{0, 1, 1, 0, 1}
		gotCodes := CodeBits(codes, hit)
		gotRange := RangeBits(vals, -3, 20)
		if len(gotCodes) != WordCount(n) || len(gotRange) != WordCount(n) {
			t.Fatalf("n=%d: %d and %d words, want %d", n, len(gotCodes), len(gotRange), WordCount(n))
		}
		for i := 0; i < n; i++ {
			wantCode := hit[codes[i]] == 1
			wantRange := vals[i] >= -3 && vals[i] <= 17
			if g := gotCodes[i>>6]>>(i&63)&1 == 1; g != wantCode {
				t.Fatalf("n=%d: codeBits row %d = %v, want %v", n, i, g, wantCode)
			}
			if g := gotRange[i>>6]>>(i&63)&1 == 1; g != wantRange {
				t.Fatalf("n=%d: rangeBits row %d = %v, want %v", n, i, g, wantRange)
			}
		}
		if r := n & 63; r != 0 && (gotCodes[n>>6]>>r != 0 || gotRange[n>>6]>>r != 0) {
			t.Fatalf("n=%d: bits set past the last row", n)
		}
	}
}
