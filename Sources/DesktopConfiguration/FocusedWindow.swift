import InputChecks

/// The window that has the keyboard focus, as a focus source reports it:
/// what a binding's `apps`, `notApps` and `title` are matched against.
///
///     FocusedWindow(appID: "firefox", title: "Mozilla Firefox", source: "sway")
public struct FocusedWindow: Hashable, Sendable, CustomStringConvertible {
    /// The application id: a Wayland `app_id` (`org.mozilla.firefox`), or
    /// the class of X11's `WM_CLASS` (`firefox`, `XTerm`).
    public var appID: String
    /// X11's `WM_CLASS` instance name (`Navigator`, `xterm`), or nil
    /// (Wayland has none); `apps` patterns are matched against it too.
    public var instance: String?
    /// The window's title (`_NET_WM_NAME`, or the compositor's name); empty when it has none.
    public var title: String
    /// The focus source that reported it: `x11`, `sway`, `hyprland`, `wlroots`, `kwin`, `recorded`.
    public var source: String

    /// A focused window.
    public init(appID: String, instance: String? = nil, title: String = "", source: String) {
        self.appID = appID
        self.instance = instance
        self.title = title
        self.source = source
    }

    /// `firefox 'Mozilla Firefox'` (with the instance when it differs: `XTerm (xterm) 'bash'`),
    /// every part escaped (``Excerpt/printable(_:)``): they come from the window's own program.
    public var description: String {
        let instance = self.instance.map { $0 == appID || $0.isEmpty ? "" : " (\(Excerpt.printable($0)))" } ?? ""
        return "\(Excerpt.printable(appID))\(instance) \(Excerpt.quoted(title, limit: 60))"
    }

    /// `{"app":"firefox","instance":"Navigator","title":"Mozilla Firefox","source":"x11"}`
    /// (no `instance` when it has none): one line of `gestures focus --format
    /// json`, and of a recorded focus file with `time_ms` before it.
    public var jsonObject: String {
        let instance = self.instance.map { ",\"instance\":\(JSONText.quoted($0))" } ?? ""
        return "{\"app\":\(JSONText.quoted(appID))\(instance),\"title\":\(JSONText.quoted(title)),\"source\":\(JSONText.quoted(source))}"
    }
}
