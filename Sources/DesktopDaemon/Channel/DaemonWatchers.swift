import Synchronization

/// Everyone watching a daemon: the pages of `gestures ui` and other local
/// programs on its socket (``DaemonChannel``), each handed every line the
/// daemon publishes (``ChannelMessage``). While nobody watches, ``isWatched``
/// is false and the daemon computes nothing for them: no frame is encoded,
/// no explanation made.
///
///     let watchers = DaemonWatchers()
///     let watch = watchers.subscribe { line in print(line) }
///     watchers.publish(.hello(...))   // printed
///     watchers.unsubscribe(watch)
public final class DaemonWatchers: Sendable {
    /// One subscription, to end it with ``unsubscribe(_:)``.
    public struct Subscription: Hashable, Sendable {
        fileprivate let number: Int
    }

    private struct State {
        var next = 0
        var subscribers: [Int: @Sendable (String) -> Void] = [:]
        /// What a new subscriber is told first: the devices seen so far, by id.
        var devices: [Int: String] = [:]
    }

    private let state = Mutex(State())
    private let count = Atomic<Int>(0)

    /// Nobody watching yet.
    public init() {}

    /// Whether anyone watches: read once a frame on the engine's thread, a single atomic load.
    public var isWatched: Bool { count.load(ordering: .relaxed) > 0 }

    /// Hands `deliver` every line published from now on, after the device
    /// lines of the devices already seen (on the caller's thread, before
    /// this returns). `deliver` must not wait: it is called on the engine's thread.
    public func subscribe(_ deliver: @escaping @Sendable (String) -> Void) -> Subscription {
        let (subscription, devices) = state.withLock { state -> (Subscription, [String]) in
            state.next += 1
            state.subscribers[state.next] = deliver
            count.store(state.subscribers.count, ordering: .relaxed)
            return (Subscription(number: state.next), state.devices.keys.sorted().map { state.devices[$0]! })
        }
        devices.forEach(deliver)
        return subscription
    }

    /// Stops handing lines to `subscription`'s closure.
    public func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            state.subscribers[subscription.number] = nil
            count.store(state.subscribers.count, ordering: .relaxed)
        }
    }

    /// Hands `message` to every subscriber; a device line is kept for later subscribers too.
    public func publish(_ message: ChannelMessage) {
        guard isWatched || message.isDevice else { return }
        let line = message.jsonLine
        let subscribers = state.withLock { state -> [@Sendable (String) -> Void] in
            if case .device(let id, _) = message { state.devices[id] = line }
            return Array(state.subscribers.values)
        }
        for deliver in subscribers { deliver(line) }
    }

    /// Publishes the device line of `id` only the first time it is seen.
    public func announce(_ message: ChannelMessage) {
        guard case .device(let id, _) = message else { return publish(message) }
        let known = state.withLock { $0.devices[id] != nil }
        if !known { publish(message) }
    }

    /// Forgets device `id` (it went away).
    public func forget(device id: Int) {
        state.withLock { _ = $0.devices.removeValue(forKey: id) }
    }
}
