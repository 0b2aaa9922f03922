//go:build !linux

package cellguard

// AddressSpaceSlack is 0: there is no address-space limit here (only the
// heap watchdog).
const AddressSpaceSlack = 0

// DenyExec does nothing: there is no seccomp.
func DenyExec() error { return nil }

// TightenAddressSpace does nothing: there is no address-space limit here.
func TightenAddressSpace(int64, int64) error { return nil }
