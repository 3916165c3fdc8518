// libsystemd's sd-bus, for the KWin focus source (DesktopDaemon's
// KWinFocusConnection): the session bus, method calls to KWin's scripting
// interface and the calls its script makes back.
#include <systemd/sd-bus.h>

// An empty reply to the method call `call` (sd_bus_reply_method_return is variadic).
static inline int csdbus_reply_empty(sd_bus_message *call) {
    return sd_bus_reply_method_return(call, NULL);
}
