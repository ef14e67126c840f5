package testkit

import (
	"net"
	"sync"
	"testing"
)

func TestSyncBufferKeepsEveryWriteOfConcurrentWriters(t *testing.T) {
	var b SyncBuffer
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				_, _ = b.Write([]byte("x"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := len(b.Bytes()); got != 800 {
		t.Fatalf("%d bytes kept of 800 written", got)
	}
}

func TestFreeAddrCanBeListenedOn(t *testing.T) {
	ln, err := net.Listen("tcp", FreeAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}
