import DeviceScripts
import Testing

extension ScriptedDevices {
    /// Scripted devices whose broken rules (a grabbed device closed, a
    /// clone written without one, a loop reading on with nothing coming)
    /// are the test's failures.
    convenience init(start: Int64, end: Int64) {
        self.init(start: start, end: end, brokenRule: { Issue.record(Comment(rawValue: $0)) })
    }
}
