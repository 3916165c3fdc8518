// libsystemd's sd-bus, for the KWin and GNOME Shell focus sources
// (DesktopDaemon's SessionBusFocusConnection): the session bus, method calls
// to KWin's scripting interface and GNOME Shell's extension, and the calls
// they make back.
#include <systemd/sd-bus.h>

// An empty reply to the method call `call` (sd_bus_reply_method_return is variadic).
static inline int csdbus_reply_empty(sd_bus_message *call) {
    return sd_bus_reply_method_return(call, NULL);
}
