import Glibc
import SystemCalls
import Testing

@Suite("retryingInterrupts: the one place an interrupted call is made again")
struct ErrnoTests {
    @Test("a call interrupted by signals is made again, each time anew, until it gives a result", arguments: [1, 3])
    func interruptedCallIsRetried(interruptions: Int) throws {
        var calls = 0
        let result = try retryingInterrupts { () -> Int in
            calls += 1
            guard calls > interruptions else {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(calls == interruptions + 1)
    }

    @Test("any other failure is thrown as its Errno, and the call is not made again")
    func otherFailureIsThrown() {
        var calls = 0
        #expect(throws: Errno(rawValue: EBADF)) {
            _ = try retryingInterrupts { () -> Int32 in
                calls += 1
                errno = EBADF
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test("an Errno reads as the C library's sentence")
    func description() {
        #expect(Errno(rawValue: ENODEV).description == String(cString: strerror(ENODEV)))
        #expect(Errno.wouldBlock.rawValue == EAGAIN && Errno.connectionReset.rawValue == ECONNRESET)
    }
}
