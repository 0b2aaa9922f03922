package kernel

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

// ConnectionInfo is the content of a Jupyter connection file.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and validates the connection file at path.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ConnectionInfo{}, fmt.Errorf("read connection file: %w", err)
	}
	var ci ConnectionInfo
	if err := json.Unmarshal(data, &ci); err != nil {
		return ConnectionInfo{}, fmt.Errorf("read connection file %s: %w", path, err)
	}
	if err := ci.validate(); err != nil {
		return ConnectionInfo{}, fmt.Errorf("read connection file %s: %w", path, err)
	}
	return ci, nil
}

// validate fills defaults and checks the fields the kernel relies on.
func (ci *ConnectionInfo) validate() error {
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.IP == "" {
		ci.IP = "127.0.0.1"
	}
	if ci.SignatureScheme == "" {
		ci.SignatureScheme = "hmac-sha256"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return fmt.Errorf("transport %q is not supported (use tcp or ipc)", ci.Transport)
	}
	if ci.SignatureScheme != "hmac-sha256" {
		return fmt.Errorf("signature_scheme %q is not supported (use hmac-sha256)", ci.SignatureScheme)
	}
	for name, p := range map[string]int{"shell_port": ci.ShellPort, "control_port": ci.ControlPort,
		"stdin_port": ci.StdinPort, "iopub_port": ci.IOPubPort, "hb_port": ci.HBPort} {
		if p < 0 || p > 65535 {
			return fmt.Errorf("%s %d is out of range 0-65535", name, p)
		}
	}
	return nil
}

// endpoint returns the ZeroMQ endpoint of port. With tcp, port 0 asks the
// system for a free port; with ipc, the endpoint is the path "ip-port" as
// jupyter_client names it.
func (ci ConnectionInfo) endpoint(port int) string {
	if ci.Transport == "ipc" {
		return "ipc://" + ci.IP + "-" + strconv.Itoa(port)
	}
	return "tcp://" + ci.IP + ":" + strconv.Itoa(port)
}
