import Foundation

/// The progress of long work (`eval`, `train` over many files, `bench-*`)
/// on standard error: on a terminal, one line redrawn in place with the
/// share done and an estimate of the time left, cleared at the end; when
/// standard error is a file or a pipe, a plain line at each tenth of the
/// work, so logs stay readable.
///
///     let progress = Progress("eval: elastic E=1", total: 480, unit: "groups")
///     for group in groups { run(group); progress.advance() }
///     progress.finish()
///     // on a terminal:  eval: elastic E=1: 120/480 groups (25%), about 45 s left
///
/// Updates are cheap between redraws (a comparison, and a clock read at
/// most once per item), so loops can call ``update(_:)`` for every item.
final class Progress {
    /// What is being done, as the start of the line: `eval: elastic E=1`.
    let label: String
    /// The amount of work in all.
    let total: Int
    /// What the work is counted in, plural: `groups`, `files`.
    let unit: String
    /// Whether the line is redrawn in place (standard error is a terminal).
    let isTerminal: Bool

    private let start = ContinuousClock.now
    private var done = 0
    private var lastDraw: ContinuousClock.Instant?
    private var lastTenth = 0
    private var drawn = false

    /// The least time between two redraws on a terminal.
    static let redrawInterval = Duration.milliseconds(100)
    /// Below this much elapsed time there is no estimate: too few items to go by.
    static let estimateAfter = Duration.seconds(1)

    /// Whether standard error is a terminal.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Progress of `total` units of work labelled `label`.
    init(_ label: String, total: Int, unit: String, isTerminal: Bool = Progress.standardErrorIsTerminal) {
        self.label = label
        self.total = max(total, 1)
        self.unit = unit
        self.isTerminal = isTerminal
    }

    /// One more unit done.
    func advance(by count: Int = 1) { update(done + count) }

    /// `done` units of the total are done.
    func update(_ done: Int) {
        self.done = min(max(done, 0), total)
        if isTerminal {
            let now = ContinuousClock.now
            if let lastDraw, now - lastDraw < Self.redrawInterval, self.done < total { return }
            lastDraw = now
            write("\r\u{1B}[K" + line(now: now))
            drawn = true
        } else {
            let tenth = self.done * 10 / total
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            write(line(now: .now) + "\n")
        }
    }

    /// The work is over: the line is cleared on a terminal (the command's
    /// own output follows); nothing more is printed otherwise.
    func finish() {
        if isTerminal && drawn { write("\r\u{1B}[K") }
        drawn = false
    }

    /// `label: done/total unit (P%), about T left`.
    func line(now: ContinuousClock.Instant) -> String {
        var text = "\(label): \(done)/\(total) \(unit) (\(done * 100 / total)%)"
        let elapsed = now - start
        if done > 0 && done < total && elapsed >= Self.estimateAfter {
            let left = elapsed * (Double(total - done) / Double(done))
            text += ", about \(Self.text(left)) left"
        }
        return text
    }

    /// `45 s`, `2 min 10 s`, `1 h 5 min`: a duration as people read an estimate.
    static func text(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds < 60 { return "\(max(seconds, 1)) s" }
        if seconds < 3600 { return "\(seconds / 60) min\(seconds % 60 == 0 ? "" : " \(seconds % 60) s")" }
        return "\(seconds / 3600) h\(seconds % 3600 / 60 == 0 ? "" : " \(seconds % 3600 / 60) min")"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
