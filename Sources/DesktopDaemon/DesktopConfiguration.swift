// The daemon's configuration (DaemonConfiguration, its reading and checking)
// is its own module, which links no libevdev, so that `check-config` and the
// configuration's fuzz target do not either; the daemon's callers see it
// through this module as before.
@_exported import DesktopConfiguration
