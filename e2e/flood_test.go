package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// floodResult is the part of one bench/flood.py result line the test reads.
type floodResult struct {
	Case          string         `json:"case"`
	Count         int            `json:"count"`
	Idle          bool           `json:"idle"`
	ReplyStatus   string         `json:"reply_status"`
	IOPubMessages int            `json:"iopub_messages"`
	IOPubBytes    int            `json:"iopub_bytes"`
	ByType        map[string]int `json:"by_type"`
	StreamBytes   int            `json:"stream_bytes"`
	ToIdle        float64        `json:"to_idle_s"`
	KernelHWM     float64        `json:"kernel_vmhwm_mib"`
	WorkerHWM     float64        `json:"worker_vmhwm_mib"`
	Notes         []struct {
		Stream string `json:"stream"`
		Text   string `json:"text"`
	} `json:"notes"`
}

// TestE2EOutputFlood runs bench/flood.py (the measurement behind the
// "1,000,000 small outputs" number in docs/performance.md) on smaller
// counts: a cell printing past the 1 MiB output cap and a cell displaying
// past the 16 MiB display budget, through jupyter_client's KernelManager.
// Each must end in status idle and an ok reply, and the note the kernel
// adds must say exactly what was dropped. Memory and time are logged, not
// asserted: they belong to the benchmark.
func TestE2EOutputFlood(t *testing.T) {
	requirePython(t, map[string]string{"jupyter_client": "python3-jupyter-client", "zmq": "python3-zmq"})
	j := newJupyterEnv(t)
	script, err := filepath.Abs(filepath.Join("..", "bench", "flood.py"))
	if err != nil {
		t.Fatal(err)
	}
	// 200,000 lines of 0..199,999 are 1,288,890 bytes: 240,314 over 1 MiB.
	// 40,000 Markdown displays are charged about 22 MB against 16 MiB.
	const cases = "println:200000,markdown:40000"
	// The budgets, not the clock, must end the cells: on a loaded machine
	// 40,000 displays took longer than the default 30 s cell limit, and
	// the cell failed with Timeout before its displays reached 16 MiB.
	limit := floodCellLimit()
	ctx, cancel := context.WithTimeout(context.Background(), 3*limit)
	defer cancel()
	// Nor may a stall end them: on a loaded machine (load 40 on 2 cores)
	// the client went unscheduled for longer than the default 3 s iopub
	// stall timeout, the kernel disconnected it, and the displays and the
	// note sent until it reconnected were lost (it then got the idle
	// status replayed). The stalled_client subtest tests the disconnect.
	kernelLog := filepath.Join(t.TempDir(), "kernel.log")
	cmd := j.command(ctx, j.pythonExe, script, "--binary", j.bin, "--cases", cases,
		"--timeout", fmt.Sprint(int(limit.Seconds())+60), "--kernel-log", kernelLog,
		"--install-arg=--cell-timeout="+limit.String(), "--install-arg=--iopub-stall-timeout="+limit.String())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()

	got := map[string]floodResult{}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if line == "" {
			continue
		}
		var r floodResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("flood.py printed a line that is not a result (%v): %q\nstderr:\n%s", err, line, lastLines(stderr.String(), 30))
		}
		if r.Case != "warm" {
			got[r.Case] = r
		}
	}
	if runErr != nil {
		t.Errorf("flood.py: %v\nstderr:\n%s", runErr, lastLines(stderr.String(), 30))
	}

	want := []struct {
		name string
		note *regexp.Regexp // the whole note, numbers included
	}{
		{"println", regexp.MustCompile(`^\.\.\. \[output truncated at 1 MiB; dropped 240,314 bytes from [\d,]+ writes\]$`)},
		{"markdown", regexp.MustCompile(`^\.\.\. \[[\d,]+ displays dropped \(about [\d.]+ [kMG]B\): the cell's displays exceeded 16 MiB\]$`)},
	}
	for _, w := range want {
		r, ok := got[w.name]
		if !ok {
			t.Errorf("%s: flood.py reported nothing for this case", w.name)
			continue
		}
		t.Logf("%s x%d: idle after %.2f s; %d iopub messages, %d bytes (%v); kernel VmHWM %.1f MiB, worker %.1f MiB; notes %v",
			r.Case, r.Count, r.ToIdle, r.IOPubMessages, r.IOPubBytes, r.ByType, r.KernelHWM, r.WorkerHWM, r.Notes)
		if !r.Idle {
			t.Errorf("%s: the client never got status idle (%d iopub messages received)", w.name, r.IOPubMessages)
		}
		if r.ReplyStatus != "ok" {
			t.Errorf("%s: execute_reply status %q, want ok", w.name, r.ReplyStatus)
		}
		if len(r.Notes) != 1 || !w.note.MatchString(r.Notes[0].Text) {
			t.Errorf("%s: notes %+v, want exactly one matching %s", w.name, r.Notes, w.note)
		}
	}
	if r, ok := got["markdown"]; ok && len(r.Notes) == 1 {
		// The displays shown and the displays dropped make the cell's 40,000.
		shown := r.ByType["display_data"]
		m := regexp.MustCompile(`^\.\.\. \[([\d,]+) displays dropped`).FindStringSubmatch(r.Notes[0].Text)
		if m != nil {
			if dropped := atoiCommas(m[1]); shown+dropped != r.Count {
				t.Errorf("markdown: %d displays received + %d reported dropped = %d, want %d", shown, dropped, shown+dropped, r.Count)
			}
		}
	}
	if r, ok := got["println"]; ok && r.StreamBytes > 1<<20+200 {
		t.Errorf("println: %d stream bytes reached the client, over the 1 MiB cap and its note", r.StreamBytes)
	}
	if t.Failed() {
		t.Logf("flood.py stderr:\n%s\nkernel log:\n%s", lastLines(stderr.String(), 30), lastLines(readLog(kernelLog), 30))
	}

	t.Run("stalled_client", func(t *testing.T) { floodStalledClient(t, j, script, limit) })
}

// floodStalledClient is TestE2EOutputFlood's stalled_client case.
func floodStalledClient(t *testing.T, j *jupyterEnv, script string, limit time.Duration) {
	// A client that stops reading for 8 s mid-flood is disconnected
	// (the 2 s stall timeout set here), and the kernel logs it; the
	// client loses the output sent meanwhile, but gets the idle
	// status when it reconnects.
	const stallTimeout, stall = "2s", "2000:8"
	ctx, cancel := context.WithTimeout(context.Background(), 3*limit)
	defer cancel()
	kernelLog := filepath.Join(t.TempDir(), "kernel.log")
	cmd := j.command(ctx, j.pythonExe, script, "--binary", j.bin, "--cases", "markdown:40000", "--stall", stall,
		"--timeout", fmt.Sprint(int(limit.Seconds())+60), "--kernel-log", kernelLog,
		"--install-arg=--cell-timeout="+limit.String(), "--install-arg=--iopub-stall-timeout="+stallTimeout)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var r floodResult
	if jerr := json.Unmarshal([]byte(lines[len(lines)-1]), &r); jerr != nil || r.Case != "markdown" {
		t.Fatalf("flood.py --stall printed no markdown result (%v, %v):\n%s\nstderr:\n%s", err, jerr, stdout.String(), lastLines(stderr.String(), 30))
	}
	t.Logf("stalled client: idle %v after %.2f s, %d iopub messages", r.Idle, r.ToIdle, r.IOPubMessages)
	if !r.Idle || r.ReplyStatus != "ok" {
		t.Errorf("stalled client: idle %v, reply %q: it would wait forever", r.Idle, r.ReplyStatus)
	}
	if err != nil {
		t.Errorf("flood.py --stall: %v\nstderr:\n%s", err, lastLines(stderr.String(), 30))
	}
	log := readLog(kernelLog)
	want := "disconnected an iopub subscriber that read nothing for the stall timeout"
	if !strings.Contains(log, want) || !strings.Contains(log, "stall_timeout="+stallTimeout) {
		t.Errorf("a client stalled %s s past a %s stall timeout, and the kernel log has no %q with stall_timeout=%s:\n%s",
			strings.Split(stall, ":")[1], stallTimeout, want, stallTimeout, lastLines(log, 30))
	}
}

// readLog returns the kernel log flood.py copied to path, or says why
// there is none.
func readLog(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(no kernel log: %v)", err)
	}
	return string(b)
}

// floodCellLimit is the flood kernels' cell time limit: far past what the
// cells need (seconds on a quiet machine), scaled by SBIR_TEST_SLOW.
func floodCellLimit() time.Duration { return testenv.Scale(5 * time.Minute) }

// atoiCommas parses a count written with thousands separators.
func atoiCommas(s string) int {
	n := 0
	for _, c := range s {
		if c >= '0' && c <= '9' {
			n = n*10 + int(c-'0')
		}
	}
	return n
}
