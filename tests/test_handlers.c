#include "unit.h"
void suite_contact_handlers(void) {}
