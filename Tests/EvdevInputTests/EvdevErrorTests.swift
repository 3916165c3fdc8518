import Testing

@testable import EvdevInput

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct EvdevErrorTests {
    @Test(arguments: [
        (EACCES, EvdevError.permissionDenied(path: "/dev/input/event3")),
        (EPERM, .permissionDenied(path: "/dev/input/event3")),
        (ENODEV, .deviceGone(path: "/dev/input/event3")),
        (EAGAIN, .noMoreEvents),
        (ENOENT, .notFound(path: "/dev/input/event3")),
        (ENOTTY, .notAnInputDevice(path: "/dev/input/event3")),
        (EIO, .system(errno: EIO, operation: "open", path: "/dev/input/event3")),
    ])
    func negativeErrnoMapsToTypedError(code: Int32, expected: EvdevError) {
        #expect(EvdevError(errno: -code, path: "/dev/input/event3") == expected)
        #expect(EvdevError(errno: code, path: "/dev/input/event3") == expected)
    }

    @Test func permissionDeniedSaysHowToFixItInOneSentence() {
        let text = EvdevError.permissionDenied(path: "/dev/input/event3").description
        #expect(text.contains("/dev/input/event3"))
        #expect(text.contains("input` group"))
        #expect(text.contains("Tools/70-gestures.rules"))
        #expect(text.hasSuffix("."))
        #expect(!text.contains("\n"))
    }

    @Test func otherErrnoNamesTheOperationAndTheSystemMessage() {
        let text = EvdevError.system(errno: EIO, operation: "read", path: "/dev/input/event1").description
        #expect(text == "Cannot read /dev/input/event1: Input/output error.")
    }
}
