import Foundation
import SystemCalls

/// `libinput debug-events --device NODE` in the VM, its output read through a
/// pseudo-terminal (so it is line-buffered and each line arrives as it is
/// printed), for the checks of what a desktop would see.
///
/// libinput refuses a device that udev has not initialised; ``register(_:as:)``
/// writes the udev database entry it needs (`/run/udev/data/c13:MINOR`).
final class VMLibinput: @unchecked Sendable {
    static let program = "/usr/bin/libinput"

    let pid: pid_t
    let node: String
    private let lock = NSLock()
    private var collected: [(line: String, arrived: Int64)] = []
    private let done = DispatchSemaphore(value: 0)

    /// Starts `libinput debug-events` on `node` with tapping on, and waits
    /// (up to 20 s) until it has added the device.
    init(node: String, arguments: [String] = ["--enable-tap"]) throws {
        self.node = node
        // posix_openpt, unlockpt and ptsname by hand: Glibc's module does not
        // export them. TIOCSPTLCK and TIOCGPTN are _IOW/_IOR('T', 0x31/0x30, int).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw CheckFailure("cannot open a pseudo-terminal: \(String(cString: strerror(errno))) (is /dev/pts mounted?)")
        }
        let name = "/dev/pts/\(number)"
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw CheckFailure("cannot open the pseudo-terminal \(name)") }
        var raw = termios()
        tcgetattr(slave, &raw)
        cfmakeraw(&raw)
        tcsetattr(slave, TCSANOW, &raw)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, slave, 1)
        posix_spawn_file_actions_adddup2(&actions, slave, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = (["libinput", "debug-events", "--device", node] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/bin:/usr/bin"), nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, VMLibinput.program, &actions, nil, argv, environment)
        close(slave)
        guard rc == 0 else { close(master); throw CheckFailure("cannot start libinput: \(rc)") }
        self.pid = pid
        let thread = Thread { [self] in
            // A pseudo-terminal ends lines with \r\n.
            VMChild.readLines(from: master) { lines, now in
                lock.lock()
                collected += lines.map { ($0.trimmingCharacters(in: .init(charactersIn: "\r")), now) }
                lock.unlock()
            }
            done.signal()
        }
        thread.start()
        for _ in 0..<2000 where !lines.contains(where: { $0.contains("DEVICE_ADDED") }) {
            if kill(pid, 0) != 0 { break }
            usleep(10_000)
        }
        guard lines.contains(where: { $0.contains("DEVICE_ADDED") }) else {
            _ = stop()
            throw CheckFailure("libinput never added \(node): \(lines)")
        }
    }

    /// The lines so far.
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return collected.map(\.line) }

    /// The lines so far, with the time each arrived (µs, CLOCK_MONOTONIC).
    var timedLines: [(line: String, arrived: Int64)] { lock.lock(); defer { lock.unlock() }; return collected }

    /// The event lines (not the device's addition, not libinput's own
    /// messages), without the node column, words separated by one space.
    var events: [String] {
        lines.filter { !$0.contains("DEVICE_ADDED") && !$0.hasPrefix("libinput ") && $0.hasPrefix(" event") }
            .map { $0.split(whereSeparator: \.isWhitespace).dropFirst().joined(separator: " ") }
            .filter { !$0.isEmpty }
    }

    /// libinput's own messages (`libinput error: ...`), which are no events.
    var messages: [String] { lines.filter { $0.hasPrefix("libinput ") } }

    /// Waits until no line has arrived for `quiet` since it was called (at most 10 s).
    func waitUntilQuiet(_ quiet: Int64 = 400_000) {
        let started = VMSuite.nowMicroseconds()
        let deadline = started + 10_000_000
        while VMSuite.nowMicroseconds() < deadline {
            let last = max(started, timedLines.last?.arrived ?? 0)
            if VMSuite.nowMicroseconds() - last >= quiet { return }
            usleep(20_000)
        }
    }

    /// Stops it with SIGINT (as a user would) and returns its lines.
    func stop() -> [String] {
        kill(pid, SIGINT)
        _ = try? waitForChild(pid)
        done.wait()
        return lines
    }

    /// Writes the udev database entry libinput needs for `node`: `ID_INPUT=1`
    /// and the kind's property (`ID_INPUT_TOUCHPAD`, `ID_INPUT_MOUSE`, `ID_INPUT_KEYBOARD`).
    static func register(_ node: String, as kinds: [String]) throws {
        let name = (node as NSString).lastPathComponent
        let numbers = try String(contentsOfFile: "/sys/class/input/\(name)/dev", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let properties = (["ID_INPUT"] + kinds.map { "ID_INPUT_" + $0.uppercased() }).map { "E:\($0)=1\n" }.joined()
        try FileManager.default.createDirectory(atPath: "/run/udev/data", withIntermediateDirectories: true)
        try properties.write(toFile: "/run/udev/data/c\(numbers)", atomically: true, encoding: .utf8)
    }

    /// What a list of event lines says: how many of each kind, and the sums
    /// of the unaccelerated pointer motion and of the scroll values.
    struct Summary: CustomStringConvertible {
        var counts: [String: Int] = [:]
        var motion = (dx: 0.0, dy: 0.0)
        var scroll = (vertical: 0.0, horizontal: 0.0)
        var buttons: [String] = []

        init(_ events: [String]) {
            for line in events {
                let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
                guard let kind = words.first else { continue }
                counts[kind, default: 0] += 1
                if kind == "POINTER_MOTION", let open = line.firstIndex(of: "(") {
                    let numbers = Self.numbers(String(line[open...]))
                    if numbers.count >= 2 { motion.dx += numbers[0]; motion.dy += numbers[1] }
                }
                if kind.hasPrefix("POINTER_SCROLL") || kind == "POINTER_AXIS" {
                    if let index = words.firstIndex(of: "vert"), index + 1 < words.count {
                        scroll.vertical += Self.numbers(words[index + 1]).first ?? 0
                    }
                    if let index = words.firstIndex(of: "horiz"), index + 1 < words.count {
                        scroll.horizontal += Self.numbers(words[index + 1]).first ?? 0
                    }
                }
                if kind == "POINTER_BUTTON" {
                    buttons.append(words.filter { $0.hasPrefix("BTN_") || $0 == "pressed," || $0 == "released," }.joined(separator: " "))
                }
            }
        }

        static func numbers(_ text: String) -> [Double] {
            var result: [Double] = []
            var current = ""
            for character in text + " " {
                if character.isNumber || character == "." || ((character == "-" || character == "+") && current.isEmpty) {
                    current.append(character)
                } else {
                    if let value = Double(current) { result.append(value) }
                    current = ""
                }
            }
            return result
        }

        var description: String {
            let kinds = counts.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }.joined(separator: ", ")
            return
                "\(kinds.isEmpty ? "nothing" : kinds); motion \(String(format: "%.2f, %.2f", motion.dx, motion.dy)); scroll \(String(format: "%.2f, %.2f", scroll.vertical, scroll.horizontal)); buttons \(buttons)"
        }

        /// Nil when equal (kinds, counts and buttons exactly; motion and
        /// scroll sums within `tolerance`, relative), else what differs.
        func difference(from other: Summary, tolerance: Double = 0.02) -> String? {
            if counts != other.counts { return "kinds and counts" }
            if buttons != other.buttons { return "buttons" }
            func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= tolerance * max(abs(a), abs(b), 1) }
            if !close(motion.dx, other.motion.dx) || !close(motion.dy, other.motion.dy) { return "motion" }
            if !close(scroll.vertical, other.scroll.vertical) || !close(scroll.horizontal, other.scroll.horizontal) { return "scroll" }
            return nil
        }
    }
}
