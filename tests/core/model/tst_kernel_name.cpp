// Kernel names as shown: mangled names demangled, every other name (and what does not demangle)
// as recorded.
#include <QTest>

#include "model/kernel_name.h"

using namespace stackline;

class TstKernelName : public QObject {
    Q_OBJECT
private slots:
    void mangledNamesAreDemangled() {
        QCOMPARE(demangledKernelName("_ZN2ck10gemm_smallIiEEvv"),
                 std::string("void ck::gemm_small<int>()"));
    }
    void otherNamesStayAsRecorded() {
        for (const char* name : {"triton_poi_fused_add_0", "void at::native::kernel<float>()", "i",
                                 "_Z", "_Znot mangled", ""})
            QCOMPARE(demangledKernelName(name), std::string(name));
    }
};

QTEST_GUILESS_MAIN(TstKernelName)
#include "tst_kernel_name.moc"
