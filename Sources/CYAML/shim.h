#ifndef GESTURES_CYAML_SHIM_H
#define GESTURES_CYAML_SHIM_H
#include <yaml.h>
#endif
