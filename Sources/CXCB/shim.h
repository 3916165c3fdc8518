// libxcb, for the X11 focus source (DesktopDaemon's X11FocusConnection):
// the EWMH properties of the root window and the active window.
#include <xcb/xcb.h>

// The event code of an event without the "sent by SendEvent" bit.
static inline uint8_t cxcb_event_code(const xcb_generic_event_t *event) {
    return event->response_type & 0x7f;
}
