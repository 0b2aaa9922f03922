"""Start a kernel with jupyter_client.KernelManager, run one cell, print the
kernel's pid, and wait to be killed: the test then SIGKILLs this client, as
a crashing JupyterLab or a closed terminal would, and checks that the kernel
(and its workers) notice and exit.

jupyter_client tells the kernel who its client is with the JPY_PARENT_PID
environment variable; ipykernel polls for that process and exits when it is
gone.

Usage: crashing_client.py KERNEL_NAME
"""

import os
import sys
import time

from jupyter_client.manager import KernelManager

SLOW = float(os.environ.get("SBIR_TEST_SLOW") or 1)  # scaled as the Go tests' limits are
CELL = {"go": 'fmt.Println("ready")', "python": "print('ready')"}

km = KernelManager(kernel_name=sys.argv[1])
km.start_kernel()
kc = km.client()
kc.start_channels()
kc.wait_for_ready(timeout=60 * SLOW)
kc.execute_interactive(CELL[km.kernel_spec.language], timeout=30 * SLOW, output_hook=lambda msg: None)
print(f"kernel {km.provisioner.process.pid}", flush=True)
time.sleep(600)
