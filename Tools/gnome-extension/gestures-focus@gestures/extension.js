// gestures' GNOME Shell extension (GNOME 45 and later): tells the gestures
// daemon which window has the focus, which no client can ask GNOME Shell
// from outside. A daemon calls Subscribe(its unique bus name) on
// /gestures/FocusReporter (interface gestures.FocusReporter) of
// org.gnome.Shell; from then on each change of the focused window, or of
// its title, is a call of Activated(wm_class, wm_class_instance, title) on
// the daemon's /gestures/Focus (interface gestures.Focus), or of
// Deactivated() when no window has the focus: the calls gestures' KWin
// script makes too. A daemon that is gone (a call fails) is dropped.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

const REPORTER = `<node>
  <interface name="gestures.FocusReporter">
    <method name="Subscribe"><arg name="daemon" type="s" direction="in"/></method>
    <method name="Unsubscribe"><arg name="daemon" type="s" direction="in"/></method>
  </interface>
</node>`;

export default class GesturesFocusExtension extends Extension {
    enable() {
        this._daemons = new Set();
        this._window = null;
        this._titleChanged = 0;
        this._exported = Gio.DBusExportedObject.wrapJSObject(REPORTER, this);
        this._exported.export(Gio.DBus.session, '/gestures/FocusReporter');
        this._focusChanged = global.display.connect('notify::focus-window', () => this._follow());
        this._follow();
    }

    disable() {
        global.display.disconnect(this._focusChanged);
        if (this._window && this._titleChanged) this._window.disconnect(this._titleChanged);
        this._exported.unexport();
        this._exported = null;
        this._window = null;
        this._daemons = null;
    }

    Subscribe(daemon) {
        this._daemons.add(daemon);
        this._report(daemon);
    }

    Unsubscribe(daemon) {
        this._daemons.delete(daemon);
    }

    _follow() {
        if (this._window && this._titleChanged) this._window.disconnect(this._titleChanged);
        this._window = global.display.focus_window;
        this._titleChanged = this._window ? this._window.connect('notify::title', () => this._reportAll()) : 0;
        this._reportAll();
    }

    _reportAll() {
        for (const daemon of this._daemons) this._report(daemon);
    }

    _report(daemon) {
        const window = this._window;
        const [method, parameters] = window
            ? ['Activated', new GLib.Variant('(sss)', [window.get_wm_class() ?? '', window.get_wm_class_instance() ?? '', window.get_title() ?? ''])]
            : ['Deactivated', null];
        Gio.DBus.session.call(daemon, '/gestures/Focus', 'gestures.Focus', method, parameters, null,
            Gio.DBusCallFlags.NO_AUTO_START, 1000, null, (connection, result) => {
                try {
                    connection.call_finish(result);
                } catch (error) {
                    this._daemons?.delete(daemon);
                }
            });
    }
}
