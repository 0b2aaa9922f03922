package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// tmuxSession is a terminal that a test types into and reads from.
type tmuxSession struct {
	t      *testing.T
	tmux   string
	socket string // private server (-L), so the user's tmux is never touched
	j      *jupyterEnv
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(10*time.Second))
	defer cancel()
	cmd := s.j.command(ctx, s.tmux, append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...)
	cmd.SysProcAttr = nil // the tmux server must outlive this client
	cmd.Cancel = nil
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen returns the pane's text, scrollback included.
func (s *tmuxSession) screen() string {
	return s.run("capture-pane", "-p", "-J", "-t", "console", "-S", "-500")
}

// typeLine types text literally and presses Enter, as a person would.
func (s *tmuxSession) typeLine(text string) {
	s.t.Helper()
	if text != "" {
		s.run("send-keys", "-t", "console", "-l", text)
	}
	s.run("send-keys", "-t", "console", "Enter")
}

func (s *tmuxSession) key(k string) { s.run("send-keys", "-t", "console", k) }

// waitFor waits until the screen matches re, and fails with the screen
// otherwise, after timeout (scaled by SBIR_TEST_SLOW).
func (s *tmuxSession) waitFor(what string, re *regexp.Regexp, timeout time.Duration) string {
	s.t.Helper()
	timeout = testenv.Scale(timeout)
	deadline := time.Now().Add(timeout)
	for {
		scr := s.screen()
		if re.MatchString(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("jupyter console: %s did not appear within %v (waiting for %q). Screen:\n%s", what, timeout, re, lastLines(scr, 40))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// promptLine matches an input prompt line, empty or not.
var promptLine = regexp.MustCompile(`(?m)^In \[\d+\]: `)

// emptyPromptAtEnd matches a screen whose last line is an empty prompt.
var emptyPromptAtEnd = regexp.MustCompile(`(?m)^In \[\d+\]: *\n*\z`)

// prompts counts the input prompts shown so far.
func (s *tmuxSession) prompts() int { return len(promptLine.FindAllString(s.screen(), -1)) }

// waitForNewPrompt waits for an empty prompt beyond the first `before`
// prompts, and returns the screen; it fails after timeout (scaled by
// SBIR_TEST_SLOW).
func (s *tmuxSession) waitForNewPrompt(what string, before int, timeout time.Duration) string {
	s.t.Helper()
	timeout = testenv.Scale(timeout)
	deadline := time.Now().Add(timeout)
	for {
		scr := s.screen()
		if len(promptLine.FindAllString(scr, -1)) > before && emptyPromptAtEnd.MatchString(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("jupyter console: %s: no new prompt within %v. Screen:\n%s", what, timeout, lastLines(scr, 40))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startConsole opens `jupyter console --kernel KERNEL ARGS...` in a new tmux
// server and waits for its first prompt.
func startConsole(t *testing.T, j *jupyterEnv, tmux, jupyter, kernel string, args ...string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, tmux: tmux, socket: fmt.Sprintf("sbir-e2e-%d-%s", os.Getpid(), kernel), j: j}
	// The shell line reports how the console ended and keeps the pane open
	// so the test can read it. The shell traps SIGINT (the terminal sends
	// Ctrl-C to it too) so that it outlives the console; a trapped signal is
	// reset to its default in the console itself.
	script := fmt.Sprintf("trap true INT; %s console --kernel %s %s; echo \"[console exited with status $?]\"; sleep 600",
		jupyter, kernel, strings.Join(args, " "))
	s.run("new-session", "-d", "-s", "console", "-x", "160", "-y", "50", "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-L", s.socket, "kill-server").Run() })
	s.waitForNewPrompt("the first prompt", 0, 60*time.Second)
	return s
}

// exit leaves the console as a person does (Ctrl-D, then "y") and checks
// that it ended cleanly. With consoleBug, a traceback of the console's own
// KeyboardInterrupt is tolerated (jupyter_console#296).
func (s *tmuxSession) exit(consoleBug bool) {
	s.t.Helper()
	s.key("C-d")
	s.waitFor("the exit confirmation", regexp.MustCompile(`Do you really want to exit`), 10*time.Second)
	s.typeLine("y")
	scr := s.waitFor("the console's exit", regexp.MustCompile(`\[console exited with status \d+\]`), 30*time.Second)
	if !strings.Contains(scr, "[console exited with status 0]") {
		s.t.Errorf("jupyter console did not exit cleanly. Screen:\n%s", lastLines(scr, 20))
	}
	if tb := strings.Index(scr, "Traceback (most recent call last)"); tb >= 0 {
		if !consoleBug || !strings.Contains(scr[tb:], "KeyboardInterrupt") {
			s.t.Errorf("jupyter console printed a Python traceback. Screen:\n%s", scr)
		}
	}
}

// interruptEndlessLoop types an endless loop, presses Ctrl-C once the
// loop spins in the kernel's worker, and returns the screen once a new
// prompt is shown.
func (s *tmuxSession) interruptEndlessLoop(timeout time.Duration) (string, time.Duration) {
	s.t.Helper()
	before := s.prompts()
	base := s.j.cpuTicks()
	s.typeLine("for {}")
	s.j.waitSpinning(s.t, base)
	if scr := s.screen(); len(promptLine.FindAllString(scr, -1)) > before && emptyPromptAtEnd.MatchString(scr) {
		s.t.Fatalf("an endless loop finished on its own. Screen:\n%s", lastLines(scr, 20))
	}
	pressed := time.Now()
	s.key("C-c")
	scr := s.waitForNewPrompt("Ctrl-C on an endless loop", before, timeout)
	return scr, time.Since(pressed)
}

// TestE2EConsole uses `jupyter console --kernel sbir` in a real terminal
// (tmux), as a person would: a function typed line by line, its result,
// Ctrl-C on an endless loop, a cell after that, and exiting.
//
// Debian 12's jupyter-console 6.4.4 with prompt_toolkit 3.0.36 never sends
// the interrupt from its default (prompt_toolkit) prompt: prompt_toolkit
// resets the SIGINT handler, so Ctrl-C prints "KeyboardInterrupt escaped
// interact()" and the kernel keeps running (jupyter/jupyter_console#296,
// fix proposed in #295; ipykernel behaves the same here). The test accepts
// that only together with the kernel's cell time limit ending the loop and
// the console carrying on, and proves the interrupt path through the
// console with --simple-prompt, whose Ctrl-C does reach the kernel.
func TestE2EConsole(t *testing.T) {
	tmux := requireCommand(t, "tmux", "tmux")
	jupyter := requireJupyter(t, "jupyter-console jupyter-core jupyter-client")
	requirePython(t, map[string]string{"jupyter_console": "python3-jupyter-console"})
	j := newJupyterEnv(t)
	j.install()
	j.install("--name", "sbir-console", "--cell-timeout", "5s", "--kill-grace", "1s")

	t.Run("prompt_toolkit", func(t *testing.T) {
		s := startConsole(t, j, tmux, jupyter, "sbir-console")

		// A function entered line by line: the kernel's is_complete says
		// "incomplete" (with an indent) until the closing brace.
		before := s.prompts()
		s.typeLine("func add(a, b int) int {")
		// The line ends with the indent the kernel proposed.
		s.waitFor("a continuation prompt after an open brace", regexp.MustCompile(`(?m)^ +\.\.\.: [^\n]*\n*\z`), 10*time.Second)
		s.typeLine("return a + b")
		s.waitFor("a second continuation prompt", regexp.MustCompile(`(?m)return a \+ b\n +\.\.\.: [^\n]*\n*\z`), 10*time.Second)
		s.typeLine("}")
		s.waitForNewPrompt("the definition", before, 15*time.Second)

		before = s.prompts()
		s.typeLine("add(2, 3)")
		scr := s.waitForNewPrompt("add(2, 3)", before, 15*time.Second)
		if !regexp.MustCompile(`(?m)^Out\[\d+\]: 5 *$`).MatchString(scr) {
			t.Errorf("add(2, 3) did not show Out[N]: 5. Screen:\n%s", lastLines(scr, 20))
		}

		// Help as IPython users ask for it: the cell's value is the
		// documentation, not a syntax error.
		before = s.prompts()
		s.typeLine("award_data.Where?")
		scr = s.waitForNewPrompt("award_data.Where?", before, 15*time.Second)
		if !strings.Contains(scr, "func Where(column, op string, value any) Frame") || strings.Contains(scr, "SyntaxError") {
			t.Errorf("award_data.Where? did not show the signature. Screen:\n%s", lastLines(scr, 20))
		}

		scr, took := s.interruptEndlessLoop(20 * time.Second)
		loop := scr[strings.LastIndex(scr, "for {}"):]
		consoleBug := strings.Contains(loop, "KeyboardInterrupt escaped interact()")
		if consoleBug {
			t.Logf("jupyter_console#296: Ctrl-C did not reach the kernel (%v); the 5 s cell limit has to end the loop", took.Round(10*time.Millisecond))
		} else if !regexp.MustCompile(`(?i)interrupt`).MatchString(loop) {
			t.Errorf("the interrupted cell shows no interrupt error. Screen:\n%s", lastLines(scr, 20))
		}

		if consoleBug {
			// The kernel is still running the loop. A cell typed now would
			// meet an unanswered is_complete_request, after which this
			// console never submits a cell again (its fallback waits for an
			// empty last line that splitlines() cannot produce). Wait for
			// the kernel's 5 s limit instead, as the user has to.
			s.j.waitKernelsIdle(t, 30*time.Second)
		}
		before = s.prompts()
		s.typeLine(`fmt.Println("still here", add(40, 2))`)
		scr = s.waitForNewPrompt("the cell after Ctrl-C", before, 30*time.Second)
		if !strings.Contains(scr, "still here 42") {
			t.Errorf("the cell after Ctrl-C printed nothing. Screen:\n%s", lastLines(scr, 20))
		}
		if consoleBug && !strings.Contains(scr[strings.LastIndex(scr, "for {}"):], "Timeout") {
			t.Errorf("the loop's time-limit error never reached the console. Screen:\n%s", lastLines(scr, 20))
		}
		// The console's abandoned task ends in a KeyboardInterrupt traceback
		// when it exits; that is the same upstream bug.
		s.exit(consoleBug)
	})

	t.Run("simple_prompt", func(t *testing.T) {
		s := startConsole(t, j, tmux, jupyter, "sbir", "--simple-prompt")
		before := s.prompts()
		s.typeLine("func add(a, b int) int { return a + b }")
		s.waitForNewPrompt("a one-line definition", before, 15*time.Second)

		scr, took := s.interruptEndlessLoop(10 * time.Second)
		shownAtOnce := regexp.MustCompile(`(?i)interrupt`).MatchString(scr[strings.LastIndex(scr, "for {}"):])
		t.Logf("Ctrl-C ended the loop after %v", took.Round(10*time.Millisecond))

		before = s.prompts()
		s.typeLine(`fmt.Println("still here", add(40, 2))`)
		scr = s.waitForNewPrompt("the cell after the interrupt", before, 15*time.Second)
		if !strings.Contains(scr, "still here 42") {
			t.Errorf("the cell after the interrupt printed nothing. Screen:\n%s", lastLines(scr, 20))
		}
		// The console stops waiting for a cell at the first idle status of
		// its session, and the interrupt_request's own idle (on control)
		// can come before the cell's error: the error then shows up late,
		// when the next line is entered.
		if !regexp.MustCompile(`(?i)interrupt`).MatchString(scr[strings.LastIndex(scr, "for {}"):]) {
			t.Errorf("the interrupted cell's error never appeared. Screen:\n%s", lastLines(scr, 20))
		} else if !shownAtOnce {
			t.Logf("the interrupt error appeared only after the next input: the interrupt_request's idle status overtook the cell's error")
		}
		s.exit(false)
	})
}
