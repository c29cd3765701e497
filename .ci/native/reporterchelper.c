/*
 * The builder-side JNI helper that the native-image builder's progress report loads from
 * <java.home>/lib/svm/builder/lib/libreporterchelper.so (GraalVM ships it; no Maven artifact does). It gives the
 * builder its peak RSS and the terminal's width. Compiled by .ci/native-check with the gcc here:
 *   gcc -shared -fPIC -I$JAVA_HOME/include -I$JAVA_HOME/include/linux reporterchelper.c -o libreporterchelper.so
 */
#include <jni.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

JNIEXPORT jlong JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getPeakRSS0(JNIEnv *env, jclass clazz) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) {
        return -1;
    }
    return (jlong) usage.ru_maxrss * 1024; /* Linux reports kilobytes */
}

JNIEXPORT jint JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getTerminalWindowColumns0(JNIEnv *env, jclass clazz) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) {
        return -1;
    }
    return size.ws_col;
}
