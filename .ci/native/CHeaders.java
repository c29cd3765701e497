/*
 * The C headers the native-image builder asks for and no Maven artifact ships (GraalVM ships them in its
 * lib/svm/clibraries/include): their structs are written from the @CStruct/@CField interfaces inside svm.jar, so their
 * layout is the one the builder was compiled against; the builder compiles them with the C compiler here to read the
 * layout back. Run by .ci/native-check with the builder's jars on the class path:
 *   java .ci/native/CHeaders.java <out-dir>
 * Only the builder's layout queries read these headers; a linked binary would need the matching C library (libchelper).
 */
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class CHeaders {

    /** Header (relative to the C library path) -> the @CStruct interfaces it declares. */
    static final Map<String, List<String>> STRUCTS = Map.of(
            "include/amd64cpufeatures.h", List.of("com.oracle.svm.core.amd64.AMD64LibCHelper$CPUFeatures"),
            "include/aarch64cpufeatures.h", List.of("com.oracle.svm.core.aarch64.AArch64LibCHelper$CPUFeatures"),
            "include/riscv64cpufeatures.h", List.of("com.oracle.svm.core.riscv64.RISCV64LibCHelper$CPUFeatures"),
            "include/svm_locale.h", List.of("com.oracle.svm.core.c.locale.LocaleCHelper$LocaleProps"));

    /** Header -> the classes whose @CConstant methods it defines (values as libchelper's own header has them). */
    static final Map<String, Map<String, Integer>> CONSTANTS = Map.of(
            "include/svm_locale.h", Map.of("SVM_LOCALE_INITIALIZATION_SUCCEEDED", 0,
                    "SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY", 1));

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        ClassLoader loader = CHeaders.class.getClassLoader();
        @SuppressWarnings("unchecked")
        Class<? extends Annotation> cStruct = (Class<? extends Annotation>) Class.forName("org.graalvm.nativeimage.c.struct.CStruct", false, loader);
        @SuppressWarnings("unchecked")
        Class<? extends Annotation> cField = (Class<? extends Annotation>) Class.forName("org.graalvm.nativeimage.c.struct.CField", false, loader);
        for (var header : STRUCTS.entrySet()) {
            StringBuilder c = new StringBuilder();
            String guard = "SVM_NATIVE_CHECK_" + header.getKey().replaceAll("[^A-Za-z0-9]", "_").toUpperCase();
            c.append("/* Written by .ci/native/CHeaders.java from the @CStruct interfaces of svm.jar. */\n");
            c.append("#ifndef ").append(guard).append("\n#define ").append(guard).append("\n\n");
            for (var constant : CONSTANTS.getOrDefault(header.getKey(), Map.of()).entrySet().stream()
                    .sorted(Map.Entry.comparingByKey()).toList()) {
                c.append("#define ").append(constant.getKey()).append(' ').append(constant.getValue()).append('\n');
            }
            for (String structClass : header.getValue()) {
                Class<?> type = Class.forName(structClass, false, loader);
                Annotation struct = type.getAnnotation(cStruct);
                if (struct == null) {
                    throw new IllegalStateException(structClass + " has no @CStruct: the builder's layout changed, update " + CHeaders.class.getName());
                }
                String name = (String) cStruct.getMethod("value").invoke(struct);
                if (name.isEmpty()) {
                    name = type.getSimpleName();
                }
                List<Method> getters = new ArrayList<>();
                for (Method m : type.getDeclaredMethods()) {
                    if (m.getAnnotation(cField) != null && m.getParameterCount() == 0) {
                        getters.add(m);
                    }
                }
                // The order of the fields does not matter: the builder asks the C compiler for each one's offset by name.
                c.append("\ntypedef struct {\n");
                for (Method m : getters) {
                    String field = (String) cField.getMethod("value").invoke(m.getAnnotation(cField));
                    if (field.isEmpty()) {
                        field = m.getName();
                    }
                    c.append("  ").append(cType(m.getReturnType())).append(' ').append(field).append(";\n");
                }
                c.append("} ").append(name).append(";\n");
            }
            c.append("\n#endif\n");
            Path file = out.resolve(header.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, c);
        }
    }

    static String cType(Class<?> java) throws IOException {
        if (java == boolean.class || java == byte.class) {
            return "char";
        } else if (java == short.class) {
            return "short";
        } else if (java == int.class) {
            return "int";
        } else if (java == long.class) {
            return "long long";
        } else if (!java.isPrimitive()) {
            return "char*"; // CCharPointer and other word types: pointer-sized
        }
        throw new IllegalStateException("no C type for " + java);
    }
}
