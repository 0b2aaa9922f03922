module github.com/go-zeromq/zmq4

go 1.25.0

require (
	github.com/go-zeromq/goczmq/v4 v4.2.2
	go.uber.org/goleak v1.3.0
	golang.org/x/sync v0.22.0
	golang.org/x/text v0.41.0
)
