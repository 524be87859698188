package dev.nimchart;

import java.util.function.Supplier;

/**
 * A supplier that makes its value when first asked, once, and hands out the same value after that (checks of one
 * tier may ask from several threads); if making it throws, the next ask tries again.
 */
final class Once<T> implements Supplier<T> {

    private final Supplier<T> make;
    private T value;

    private Once(Supplier<T> make) {
        this.make = make;
    }

    static <T> Supplier<T> of(Supplier<T> make) {
        return new Once<>(make);
    }

    @Override
    public synchronized T get() {
        if (value == null) {
            value = make.get();
        }
        return value;
    }
}
