package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.util.function.BooleanSupplier;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;

/**
 * In a native image of an application without protobuf-java, {@link Protobuf} has no Protobuf type to link: the
 * native-image builder links at build time and would refuse its methods. No payload is a Protobuf message there, so
 * its methods (never called there: {@link ProtobufTypes#isMessage} is false for every class) are replaced by ones that
 * link.
 */
@TargetClass(value = Protobuf.class, onlyWith = Target_Protobuf.WithoutProtobuf.class)
final class Target_Protobuf {

    @Substitute
    static BuiltInDecoder decoder(Class<?> type) {
        throw new IllegalStateException("protobuf-java is not in this application: " + type.getName()
                + " cannot be read as Protobuf");
    }

    @Substitute
    static byte[] encode(Object message) {
        throw new IllegalStateException("protobuf-java is not in this application");
    }

    @Substitute
    static String typeName(Object message) {
        throw new IllegalStateException("protobuf-java is not in this application");
    }

    /** Whether the application being built lacks protobuf-java. */
    static final class WithoutProtobuf implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            try {
                Class.forName("com.google.protobuf.Message", false, Thread.currentThread().getContextClassLoader());
                return false;
            } catch (ClassNotFoundException e) {
                return true;
            }
        }
    }
}
