#pragma once
// The gpuscope application icon, from the PNG renders of resources/icons/gpuscope.svg.
#include <QIcon>

namespace gpuscope::ui {

// Registers the gpuscope.qrc resources (they live in the static gpuscope_ui library) once.
void ensureResources();

QIcon applicationIcon();

}  // namespace gpuscope::ui
