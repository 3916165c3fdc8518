import CommandLineKit
import DesktopDaemon
import Foundation
import InputChecks
import Synchronization

/// `gestures focus`: the focused window as the daemon sees it, then each change live.
enum FocusCommand: Command {
    static let name = "focus"
    static let abstract = "Print the focused application as the daemon sees it, then each change, until Ctrl-C."
    static let discussion = """
        The focus source is chosen from the session as `gestures run` chooses it: sway or i3
        (SWAYSOCK, I3SOCK), Hyprland (HYPRLAND_INSTANCE_SIGNATURE), else X11 (DISPLAY), else KDE Plasma
        (a KWin script on the session bus) or GNOME (its extension, gestures-focus@gestures), else another wlroots compositor (WAYLAND_DISPLAY:
        wlr-foreign-toplevel-management); the first
        line names it and the window focused now, and each change prints one more line, flushed
        at once. With --format json each line is an object with time_ms (from the start), app
        (null when nothing has the focus), instance (X11), title and source: the lines a
        recorded focus file for `gestures run --replay TRACE --focus FILE` holds. The exit status
        is 1 when no source is available or the connection fails, with one sentence saying why.
        """
    static let format = OutputFormat.option(default: .text, help: "A readable line or one JSON object per change.")
    static let count = Option(
        "--count", valueName: "N", .integer(in: 1...1_000_000), help: "Stop after N changes (default: run until Ctrl-C).")
    static let options = [format.spec, count.spec]

    /// The output format, and how many changes to follow.
    struct Options {
        var format: OutputFormat
        var count: Int?
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(format: arguments[format], count: arguments[count])
    }

    static func run(_ options: Options) throws -> Int32 {
        let session = FocusSession.choose(ProcessInfo.processInfo.environment)
        let focus: LiveFocus
        do { focus = try session.connect() } catch { throw CommandFailure(error.description) }
        let start = ContinuousClock.now
        let format = options.format
        let name = focus.name
        let done = DispatchSemaphore(value: 0)
        let remaining = Mutex(options.count ?? Int.max)
        write(line(focus.focused, source: name, since: start, format: format, first: session.reason))
        let stop = StopSignals { done.signal() }
        defer { stop.cancel() }
        focus.start { window in
            write(line(window, source: name, since: start, format: format, first: nil))
            let left = remaining.withLock { value -> Int in
                value -= 1
                return value
            }
            // The source stopped (the server went away): say why and end, as the daemon says it once.
            if left <= 0 || focus.failure != nil { done.signal() }
        }
        done.wait()
        focus.stop()
        if let failure = focus.failure { throw CommandFailure("the focus source \(name) stopped: \(failure)") }
        return 0
    }

    /// One line: `sway: foot '~' (SWAYSOCK is set)` or `{"time_ms":0,"app":"foot",...}`.
    static func line(_ window: FocusedWindow?, source: String, since start: ContinuousClock.Instant, format: OutputFormat, first: String?)
        -> String
    {
        switch format {
        case .text:
            let why = first.map { " (\($0))" } ?? ""
            // The window's names come from its program, the reason from the environment: escaped.
            return Excerpt.printable("\(source): \(window?.description ?? "nothing focused")\(why)")
        case .json:
            let elapsed = ContinuousClock.now - start
            let milliseconds = (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            let time = "\"time_ms\":\(String(format: "%.3f", milliseconds))"
            guard let window else { return "{\(time),\"app\":null,\"source\":\(JSONText.quoted(source))}" }
            return "{\(time)," + window.jsonObject.dropFirst()
        }
    }

    private static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
