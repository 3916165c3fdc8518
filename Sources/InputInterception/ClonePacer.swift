import TouchInput

/// Spaces the frames written to a touchpad's clone, so that a burst (frames
/// held and let out together, or frames that queued while this process was
/// not scheduled) never looks like a jump to libinput.
///
/// The kernel stamps a uinput event when it is written, and libinput's jump
/// detection (`tp_detect_jumps`) divides each move by the time since the
/// previous frame: frames written a few microseconds apart look like a finger
/// moving metres a second, and their motion is discarded ("kernel bug: Touch
/// jump detected"). So a frame goes out no sooner than half the time that
/// separated it from the previous one on the device after the previous one
/// went out (a burst replays at twice its speed), and never more than
/// ``maximumSpacing`` later: libinput ignores gaps over 30 ms anyway. Frames
/// the device sent at its own pace go out at once.
///
/// A whole touch let out at once (a held tap) replays at its own pace
/// instead (`atOriginalPace`): its timing is what libinput's tap and hold
/// timers decide by, and nothing is left to catch up with.
///
/// Each frame is timed by its events' `microseconds` (the device's clock;
/// `PassThroughFilter` stamps the frames it makes), and spaced from the time
/// the previous one was written (``noteWritten(atMicroseconds:)``), about
/// the time the kernel gave it.
///
///     var pacer = ClonePacer()
///     pacer.enqueue(frames)
///     let frames = pacer.take(nowMicroseconds: now)
///     let writing = clock()
///     for frame in frames { try clone.writeFrame(frame) }
///     pacer.noteWritten(atMicroseconds: writing)
///     let wake = pacer.nextDueMicroseconds
public struct ClonePacer: Sendable {
    /// The longest a frame waits after the previous one went out: 15 ms.
    public static let maximumSpacing: Int64 = 15_000 /* µs */

    private var queue: [(events: [InputEvent], factor: Int64)] = []
    private var last: (written: Int64, deviceTime: Int64)?

    /// An empty pacer.
    public init() {}

    /// Whether frames are waiting.
    public var isEmpty: Bool { queue.isEmpty }

    /// Queues frames behind those waiting; `atOriginalPace` spaces them as
    /// the device did, not at twice its speed.
    public mutating func enqueue(_ frames: [[InputEvent]], atOriginalPace: Bool = false) {
        for frame in frames where !frame.isEmpty { queue.append((frame, atOriginalPace ? 1 : 2)) }
    }

    /// When the next frame may go out (microseconds, the events' clock), or nil.
    public var nextDueMicroseconds: Int64? {
        guard let next = queue.first else { return nil }
        return due(next)
    }

    /// The frames that may go out at `now`, in order.
    public mutating func take(nowMicroseconds now: Int64) -> [[InputEvent]] {
        var out: [[InputEvent]] = []
        while let next = queue.first, due(next) <= now {
            queue.removeFirst()
            out.append(next.events)
            last = (now, Self.time(of: next.events) ?? last?.deviceTime ?? now)
        }
        return out
    }

    /// Notes that `frame` went to the clone at `now` without waiting here
    /// (forwarded by the reader, `InterceptedDevice.noteForwarded`, only when
    /// nothing waits): the next
    /// frame is spaced from it.
    public mutating func passed(_ frame: [InputEvent], nowMicroseconds now: Int64) {
        last = (now, Self.time(of: frame) ?? last?.deviceTime ?? now)
    }

    /// Notes that the frames taken last were written at `microseconds` (the
    /// events' clock, read just before the write): the next frame is spaced
    /// from then. The kernel stamps a frame when it is written, which can be
    /// well after the `take` that let it out (the pipeline ran in between,
    /// or another process had the CPU); spaced from the `take`, the next
    /// frame could reach libinput a few microseconds after it, which it
    /// discards as a jump. (Read after the write, the time would also count
    /// the readers the write woke, and every frame of a burst would wait
    /// for them and then half a gap more.)
    public mutating func noteWritten(atMicroseconds microseconds: Int64) {
        guard let previous = last, microseconds > previous.written else { return }
        last = (microseconds, previous.deviceTime)
    }

    /// Every waiting frame, at once (the clone is about to go).
    public mutating func drain() -> [[InputEvent]] {
        defer { queue = [] }
        return queue.map(\.events)
    }

    private func due(_ frame: (events: [InputEvent], factor: Int64)) -> Int64 {
        guard let last, let time = Self.time(of: frame.events) else { return Int64.min }
        let gap = max(0, time - last.deviceTime) / frame.factor
        return last.written + (frame.factor == 1 ? gap : min(Self.maximumSpacing, gap))
    }

    private static func time(of frame: [InputEvent]) -> Int64? {
        frame.first.map(\.microseconds)
    }
}
