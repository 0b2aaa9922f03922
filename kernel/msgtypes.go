package kernel

// Message types of the Jupyter messaging protocol (5.3) that the kernel
// handles or sends: the one place they are spelled. A reply's type is its
// request's with "_reply" for "_request" (replyType).
const (
	// Requests on shell and control, and their replies.
	msgKernelInfoRequest = "kernel_info_request"
	msgKernelInfoReply   = "kernel_info_reply"
	msgExecuteRequest    = "execute_request"
	msgExecuteReply      = "execute_reply"
	msgCompleteRequest   = "complete_request"
	msgCompleteReply     = "complete_reply"
	msgInspectRequest    = "inspect_request"
	msgInspectReply      = "inspect_reply"
	msgIsCompleteRequest = "is_complete_request"
	msgIsCompleteReply   = "is_complete_reply"
	msgHistoryRequest    = "history_request"
	msgHistoryReply      = "history_reply"
	msgCommInfoRequest   = "comm_info_request"
	msgCommInfoReply     = "comm_info_reply"
	msgShutdownRequest   = "shutdown_request"
	msgShutdownReply     = "shutdown_reply"
	msgInterruptRequest  = "interrupt_request"
	msgInterruptReply    = "interrupt_reply"

	// Comms (the kernel has no comm targets: it closes what is opened).
	msgCommOpen  = "comm_open"
	msgCommMsg   = "comm_msg"
	msgCommClose = "comm_close"

	// IOPub.
	msgStatus            = "status"
	msgStream            = "stream"
	msgExecuteInput      = "execute_input"
	msgExecuteResult     = "execute_result"
	msgError             = "error"
	msgDisplayData       = "display_data"
	msgUpdateDisplayData = "update_display_data"
	msgClearOutput       = "clear_output"

	// Stdin.
	msgInputRequest = "input_request"
	msgInputReply   = "input_reply"
)
