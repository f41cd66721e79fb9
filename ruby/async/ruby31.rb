# frozen_string_literal: true

# Ruby 3.1 only: its entry points (server.rb, bare_server.rb) load this on Ruby < 3.2 alone.
# async 2.24.0, the last release that declares Ruby 3.1 (`required_ruby_version >= 3.1`; the
# root Gemfile's), calls IO#timeout in its scheduler's io_wait whenever a wait has no timeout of
# its own (every accept, read and write that would block), and io-stream 0.6.1 does in its
# fallback reads; IO#timeout came with Ruby 3.2. On Ruby 3.1 that raises NoMethodError inside the
# scheduler: the task that waited fails silently, and a server stops accepting at its first wait.
# Ruby 3.2's IO#timeout is nil unless set (wait for ever), so on 3.1 every IO gets that default,
# read-only: nothing here sets a timeout on an IO (the deadlines are the server's own,
# ruby/shared/deadlines.rb).
unless IO.method_defined?(:timeout)
  class IO
    def timeout = nil
  end
end
