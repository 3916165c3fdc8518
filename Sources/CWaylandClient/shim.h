// libwayland-client, for the focus source of wlroots compositors
// (DesktopDaemon's WaylandFocusConnection): the display, the registry and
// the generic proxy calls the wlr-foreign-toplevel-management interfaces
// (written in Swift from the protocol's description) are used through.
#include <wayland-client.h>

// The core interfaces the foreign-toplevel interfaces name in their
// arguments, by address (Swift imports a C constant by value).
static inline const struct wl_interface *cwayland_seat_interface(void) { return &wl_seat_interface; }
static inline const struct wl_interface *cwayland_surface_interface(void) { return &wl_surface_interface; }
static inline const struct wl_interface *cwayland_output_interface(void) { return &wl_output_interface; }
