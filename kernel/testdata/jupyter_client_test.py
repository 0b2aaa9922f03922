"""Real Jupyter clients against the kernel (run by TestJupyterClient).

The kernel is the Go test binary serving the script evaluator (see
fake_test.go): "print X" prints, "value X" is a value, "fail N M" fails,
"block" waits for an interrupt. KERNEL_NAME names its kernelspec.
"""
import os
import queue
import sys
import time
import unittest

import jupyter_kernel_test
from jupyter_client.manager import start_new_kernel

KERNEL = os.environ["KERNEL_NAME"]
# How long to wait for what must come: scaled by SBIR_TEST_SLOW, as the Go
# tests' limits are, since it bounds only a failure.
WAIT = 10 * float(os.environ.get("SBIR_TEST_SLOW") or 1)


class Conformance(jupyter_kernel_test.KernelTests):
    """jupyter_kernel_test's suite (python3-jupyter-kernel-test)."""

    kernel_name = KERNEL
    language_name = "go"
    file_extension = ".go"
    code_hello_world = "print hello, world"
    code_stderr = "eprint oops"
    completion_samples = [{"text": "fmt.Pr", "matches": {"Println", "Printf"}}]
    complete_code_samples = ["x := 1"]
    incomplete_code_samples = ["if x {"]
    invalid_code_samples = ["f())"]
    code_generate_error = "fail CompileError undefined: x"
    code_execute_result = [{"code": "value 42", "result": "42"}, {"code": "value 7", "result": "7"}]
    code_display_data = [{"code": "display hi", "mime": "text/plain"}]
    code_history_pattern = "value 4?"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "fmt.Println"
    code_clear_output = "clear"


def drain_until_idle(kc, msg_id, timeout=WAIT):
    msgs = []
    while True:
        m = kc.get_iopub_msg(timeout=timeout)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        msgs.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return msgs


def wait_started(kc, msg_id):
    """Waits for the cell's execute_input: from then on an interrupt reaches it."""
    while True:
        m = kc.get_iopub_msg(timeout=WAIT)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
            return


class Lifecycle(unittest.TestCase):
    """Interrupt, restart and shutdown through KernelManager, as JupyterLab does them."""

    def setUp(self):
        self.km, self.kc = start_new_kernel(kernel_name=KERNEL)

    def tearDown(self):
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=True)

    def test_interrupt_message_mode(self):
        msg_id = self.kc.execute("block")
        wait_started(self.kc, msg_id)
        self.km.interrupt_kernel()  # interrupt_mode "message": interrupt_request on control
        reply = self.kc.get_shell_msg(timeout=WAIT)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        # The kernel still answers.
        reply = self.kc.execute("value 1", reply=True, timeout=WAIT)
        self.assertEqual(reply["content"]["status"], "ok")

    def test_interrupt_signal_mode(self):
        km, kc = start_new_kernel(kernel_name=KERNEL + "-signal")
        try:
            msg_id = kc.execute("block")
            wait_started(kc, msg_id)
            km.interrupt_kernel()  # interrupt_mode "signal": SIGINT to the kernel's process group
            reply = kc.get_shell_msg(timeout=WAIT)
            self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
            self.assertEqual(reply["content"]["ename"], "Interrupted")
            self.assertTrue(km.is_alive(), "SIGINT killed the kernel")
            reply = kc.execute("value 1", reply=True, timeout=WAIT)
            self.assertEqual(reply["content"]["status"], "ok")
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)

    def test_stop_on_error_aborts_queued(self):
        ids = [self.kc.execute(c) for c in ("sleep 100ms\nfail Boom x", "value 2", "value 3")]
        statuses = {}
        while len(statuses) < 3:
            r = self.kc.get_shell_msg(timeout=WAIT)
            statuses[r["parent_header"]["msg_id"]] = r["content"]["status"]
        self.assertEqual([statuses[i] for i in ids], ["error", "aborted", "aborted"])

    def test_restart(self):
        before = self.km.provisioner.process
        self.km.restart_kernel(now=False)  # shutdown_request(restart=True), then a new process
        self.assertEqual(before.returncode, 0, "the old kernel did not exit by itself")
        self.kc.wait_for_ready(timeout=WAIT)
        self.assertNotEqual(before.pid, self.km.provisioner.process.pid)
        reply = self.kc.execute("value 1", reply=True, timeout=WAIT)
        self.assertEqual(reply["content"]["execution_count"], 1)

    def test_shutdown_is_graceful(self):
        proc = self.km.provisioner.process
        # shutdown_request; jupyter_client kills the kernel if it has not
        # exited within its shutdown_wait_time (5 s): exit status 0 means
        # it exited by itself, within that limit.
        self.km.shutdown_kernel(now=False)
        self.assertEqual(proc.returncode, 0, "the kernel did not exit by itself")

    def test_heartbeat(self):
        self.assertTrue(self.kc.is_alive())
        # jupyter_client pings every second; a reply later than a second
        # (a loaded machine) counts as a missed beat until the next one.
        time.sleep(1.5)
        deadline = time.monotonic() + WAIT
        while not self.kc.hb_channel.is_beating():
            self.assertLess(time.monotonic(), deadline, "no heartbeat")
            time.sleep(0.1)


class NBClient(unittest.TestCase):
    """nbclient (papermill's engine) runs a notebook end to end."""

    def test_notebook(self):
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError

        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(c) for c in ("print hello", "value 42", "display d\nprint after")]
        NotebookClient(nb, kernel_name=KERNEL, timeout=int(2 * WAIT), startup_timeout=int(2 * WAIT)).execute()
        outs = [c.outputs for c in nb.cells]
        self.assertEqual(outs[0][0]["text"], "hello\n")
        self.assertEqual(outs[1][0]["data"]["text/plain"], "42")
        self.assertEqual(outs[1][0]["execution_count"], 2)
        self.assertEqual([o["output_type"] for o in outs[2]], ["display_data", "stream"])

        nb.cells = [nbformat.v4.new_code_cell("fail Boom broken"), nbformat.v4.new_code_cell("value 1")]
        with self.assertRaises(CellExecutionError) as cm:
            NotebookClient(nb, kernel_name=KERNEL, timeout=int(2 * WAIT)).execute()
        self.assertIn("Boom", str(cm.exception))
        self.assertEqual(len(nb.cells[0].outputs), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
