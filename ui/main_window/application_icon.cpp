#include "ui/main_window/application_icon.h"

#include <QString>
#include <mutex>

// Q_INIT_RESOURCE must be used outside any namespace.
static void registerGpuscopeResources() { Q_INIT_RESOURCE(gpuscope); }

namespace gpuscope::ui {

void ensureResources() {
  static std::once_flag once;
  std::call_once(once, registerGpuscopeResources);
}

QIcon applicationIcon() {
  ensureResources();
  QIcon icon;
  for (int size : {16, 24, 32, 48, 64, 128, 256}) {
    icon.addFile(QStringLiteral(":/icons/gpuscope-%1.png").arg(size), QSize(size, size));
  }
  return icon;
}

}  // namespace gpuscope::ui
