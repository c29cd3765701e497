package org.acme.subscriber.test.security;

import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/** A broker user with exactly the permissions a test gives it, made before the application starts. */
final class NarrowUser {

    static final String PASSWORD = "narrow-Pa55";

    private NarrowUser() {
    }

    /** Creates (again) the user with these configure, write and read patterns on the default virtual host. */
    static void create(String user, String configure, String write, String read) throws Exception {
        delete(user);
        RabbitAdmin.rabbitmqctl("add_user", user, PASSWORD);
        RabbitAdmin.rabbitmqctl("set_permissions", "-p", "/", user, configure, write, read);
    }

    /**
     * For a class whose application must fail to start: after its assertion on the failure, deletes the user (an
     * application that fails to start runs no {@code @AfterAll} of its own).
     */
    static java.util.function.Consumer<Throwable> deletedAfter(String user) {
        return failure -> {
            try {
                delete(user);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    static void delete(String user) throws Exception {
        try {
            RabbitAdmin.rabbitmqctl("delete_user", user);
        } catch (IllegalStateException e) {
            // not there
        }
    }
}
