package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

/**
 * Whether a class is a Protobuf message, asked without touching protobuf-java's types (which an application may not
 * have): by name, through the class's own loader.
 */
final class ProtobufTypes {

    private static final String MESSAGE = "com.google.protobuf.Message";

    /** Asked once per class: every payload sent that is not a raw type asks. */
    private static final ClassValue<Boolean> MESSAGES = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return Class.forName(MESSAGE, false, type.getClassLoader()).isAssignableFrom(type);
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
    };

    private ProtobufTypes() {
    }

    /** Whether the type is a Protobuf message; false when protobuf-java is not there. */
    static boolean isMessage(Class<?> type) {
        return type.getClassLoader() != null && MESSAGES.get(type);
    }
}
