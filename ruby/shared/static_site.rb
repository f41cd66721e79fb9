# frozen_string_literal: true

module EmVsNode
  # The document root, loaded into memory once at start (the same strategy as the Node server:
  # see CONTRACT.md "How files are served"). Only regular files that were under the root at start
  # can ever be served, so no request path can reach outside it.
  class StaticSite
    SiteFile = Struct.new(:body, :type)

    def initialize(root, contract)
      @contract = contract
      @files = {}
      @folders = { '/' => true }
      walk(root, '/')
    end

    # Turns a request path (split from its query) into a site key, or nil when the path is not
    # acceptable: bad percent-escapes, invalid UTF-8, encoded slashes or backslashes, NUL, or
    # any '.'/'..' segment.
    def self.decode_path(raw)
      # Most paths need no decoding: printable ASCII (all the gate lets through) with no escape,
      # backslash or dot segment is already a site key.
      return raw unless raw.include?('%') || raw.include?('\\') || raw.include?('/.')
      return nil if raw.match?(/%(2f|5c|00)/i) || raw.match?(/%(?![0-9A-Fa-f]{2})/)

      decoded = raw.b.gsub(/%([0-9A-Fa-f]{2})/) { Regexp.last_match(1).hex.chr }.force_encoding(Encoding::UTF_8)
      return nil unless decoded.valid_encoding?
      return nil if decoded.include?('\\') || decoded.include?("\0")
      return nil if decoded.split('/').intersect?(['.', '..'])

      decoded
    end

    # The file for a decoded path; a folder serves its index.html.
    def lookup(path)
      file = @files[path]
      return file if file

      folder = path.end_with?('/') && path != '/' ? path.chomp('/') : path
      return nil unless @folders[folder]

      @files[folder == '/' ? '/index.html' : "#{folder}/index.html"]
    end

    private

    def walk(dir, url_prefix)
      Dir.children(dir).sort.each do |name|
        next if name.start_with?('.') # hidden files are never served

        full = File.join(dir, name)
        url_path = "#{url_prefix}#{name}".encode(Encoding::UTF_8)
        stat = File.lstat(full)
        if stat.directory?
          @folders[url_path] = true
          walk(full, "#{url_path}/")
        elsif stat.file?
          @files[url_path] = SiteFile.new(File.binread(full).freeze, content_type(name))
        end
        # Symbolic links and special files are skipped: they could point outside the root.
      end
    end

    def content_type(name)
      @contract['content_types'][File.extname(name).downcase] || @contract['default_content_type']
    end
  end
end
