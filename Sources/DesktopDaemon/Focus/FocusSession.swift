import Foundation

/// Which focus source the session offers, chosen from its environment:
/// `SWAYSOCK` (sway), `I3SOCK` (i3), `HYPRLAND_INSTANCE_SIGNATURE`
/// (Hyprland), then an X11 session (`XDG_SESSION_TYPE=x11`, or `DISPLAY`
/// without `WAYLAND_DISPLAY`), then any other Wayland compositor through
/// wlr-foreign-toplevel-management (`WAYLAND_DISPLAY`: river, labwc,
/// Wayfire), except KDE Plasma and GNOME, read through a KWin script and
/// a GNOME Shell extension that call the daemon back on the session bus
/// (an X11 client there sees only Xwayland's windows).
///
///     FocusSession.choose(["SWAYSOCK": "/run/user/1000/sway-ipc.sock"]).kind   // .sway
///     FocusSession.choose(["WAYLAND_DISPLAY": "wayland-1"]).kind               // .wlroots
public struct FocusSession: Hashable, Sendable {
    /// The protocols the daemon reads focus through.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case sway, i3, hyprland, x11
        /// wlr-foreign-toplevel-management, which wlroots compositors offer.
        case wlroots
        /// A KWin script reporting back over the session bus (KDE Plasma on Wayland).
        case kwin
        /// gestures' GNOME Shell extension reporting back over the session bus (GNOME on Wayland).
        case gnome
    }

    /// The source chosen, or nil when the session offers none.
    public var kind: Kind?
    /// Where it connects: the socket path or the X display.
    public var address: String?
    /// Why this source, or why none, in one sentence.
    public var reason: String

    /// The source the session described by `environment` offers.
    public static func choose(_ environment: [String: String]) -> FocusSession {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let socket = value("SWAYSOCK") { return FocusSession(kind: .sway, address: socket, reason: "SWAYSOCK is set") }
        if let socket = value("I3SOCK") { return FocusSession(kind: .i3, address: socket, reason: "I3SOCK is set") }
        if let signature = value("HYPRLAND_INSTANCE_SIGNATURE") {
            let folder = HyprlandFocusConnection.folder(signature: signature, runtimeDirectory: value("XDG_RUNTIME_DIR"))
            return FocusSession(kind: .hyprland, address: folder, reason: "HYPRLAND_INSTANCE_SIGNATURE is set")
        }
        let desktop = value("XDG_CURRENT_DESKTOP") ?? "an unknown desktop"
        let wayland = value("XDG_SESSION_TYPE") == "wayland" || value("WAYLAND_DISPLAY") != nil
        if let display = value("DISPLAY"), value("XDG_SESSION_TYPE") == "x11" || !wayland {
            return FocusSession(kind: .x11, address: display, reason: "an X11 session (DISPLAY=\(display))")
        }
        // XDG_CURRENT_DESKTOP is a list: `ubuntu:GNOME`, `KDE`.
        let known = desktop.split(separator: ":").map { $0.uppercased() }.first { $0 == "GNOME" || $0 == "KDE" }
        if wayland, let known {
            let desktopName = known == "KDE" ? "KDE Plasma" : "GNOME"
            let runtime = value("XDG_RUNTIME_DIR")
            guard let bus = value("DBUS_SESSION_BUS_ADDRESS") ?? runtime.map({ "unix:path=\($0)/bus" }) else {
                return FocusSession(
                    kind: nil, address: nil,
                    reason:
                        "this is \(desktopName) on Wayland, but neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set, so its session bus cannot be found: start the daemon from the graphical session"
                )
            }
            if known == "KDE" {
                return FocusSession(kind: .kwin, address: bus, reason: "KDE Plasma on Wayland (a KWin script over the session bus)")
            }
            return FocusSession(
                kind: .gnome, address: bus,
                reason: "GNOME on Wayland (the GNOME Shell extension \(GnomeShellExtension.uuid) over the session bus)")
        }
        if let display = value("WAYLAND_DISPLAY") {
            return FocusSession(
                kind: .wlroots, address: display,
                reason: "WAYLAND_DISPLAY is set and the compositor is not sway or Hyprland (wlr-foreign-toplevel-management)")
        }
        if wayland {
            return FocusSession(
                kind: nil, address: nil,
                reason:
                    "XDG_SESSION_TYPE is wayland but WAYLAND_DISPLAY is not set: start the daemon from the graphical session (under systemd, run `systemctl --user import-environment WAYLAND_DISPLAY` first)"
            )
        }
        return FocusSession(
            kind: nil, address: nil,
            reason:
                "none of SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE, DISPLAY or WAYLAND_DISPLAY is set: start the daemon from the graphical session (under systemd, run `systemctl --user import-environment DISPLAY WAYLAND_DISPLAY SWAYSOCK` first)"
        )
    }

    /// Connects to the chosen source and reads the focus now; throws when
    /// none was chosen or the connection fails (one sentence).
    public func connect() throws(FocusError) -> LiveFocus {
        guard let kind, let address else { throw FocusError("no focus source: \(reason)") }
        switch kind {
        case .sway, .i3: return try LiveFocus(connection: I3FocusConnection(path: address, name: kind.rawValue))
        case .hyprland: return try LiveFocus(connection: HyprlandFocusConnection(folder: address))
        case .x11: return try LiveFocus(connection: X11FocusConnection(display: address))
        case .wlroots: return try LiveFocus(connection: WaylandFocusConnection(display: address))
        case .kwin, .gnome:
            let folder = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            let reporter: SessionBusFocusConnection.Reporter = kind == .kwin ? .kwin : .gnome
            return try LiveFocus(connection: SessionBusFocusConnection(reporter, address: address, folder: folder))
        }
    }
}
